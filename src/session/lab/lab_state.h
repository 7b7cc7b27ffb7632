// The Learning lab's state (File > Learning lab…): a training run opened (and
// the run beside it with the other position setting), the checkpoint the
// timeline shows, the sample and its query square, what the real model of
// that checkpoint computed there, and the training the window runs. One
// struct, LabRoom::lab (lab_room.h); its actions travel as act::Lab.
#pragma once
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "session/lab/lab_numbers.h"
#include "session/lab/lab_run.h"
#include "session/lab/lab_swap.h"
#include "session/lab/lab_view.h"
#include "vit/train/tasks.h"

namespace session {

// A run the window trains (LabTrainer), as each frame sees it.
struct LabTraining {
    bool running = false;
    std::string run;  // the folder it writes (renamed into place at the end)
    std::string task;
    bool position = true;
    int step = 0, steps = 0;
    std::vector<vit::train::LogRow> log;  // the checkpoints so far (held-out loss and accuracy)
    std::vector<float> batch_loss;        // every step's training-batch loss
    std::string finished;                 // the run written last, opened in the lab (empty: none)
    std::string stopped;                  // why the last training ended without a run (cancelled, an error)
};

struct LabState {
    bool open = false;
    std::shared_ptr<const LabRun> run, pair;  // pair: the same task with the other position setting, beside run
    int checkpoint = 0;                       // index into run->log
    int layer = -1;        // -1: auto (the layer and head singling out the task's squares most at the step shown)
    int sample = 0;        // index into run->samples
    int query_square = 0;  // the query: kQuerySquare1 (the square the task asks about), kQuerySquare2, kQueryCls
    bool swap = false;     // "swap the squares" shown

    // What the lab computed from the above (LabController::sync):
    std::shared_ptr<const vit::Image> sample_image;
    std::string sample_image_path;
    int sample_generation = 0;  // bumps with sample_image (its texture)
    std::vector<LabSquare> squares;
    int query = -1, other = -1;      // tokens: the query, and the other square for a square's query (-1: none)
    int square1 = -1, square2 = -1;  // the squares' tokens (-1: the sample has no such square)
    int shown_layer = 0, shown_head = 0;
    std::vector<LabStepNumbers> series;     // every checkpoint on the sample: the curves, auto, the positions
    std::optional<LabMoment> moment;        // the shown head's learned moment beside the accuracy's
    std::optional<LabSwap> swapped;         // the checkpoint on the sample with its squares swapped
    std::string sample_label;               // the sample's true label (samples.csv)
    std::string notice;                     // a one-line answer to a button (no wrong sample left, ...)
    LabCheckpoint first, now;               // the run's first checkpoint and the one shown
    std::optional<LabCheckpoint> pair_now;  // the pair at the same step (its checkpoint at or before it)
    std::vector<LabSentence> sentences;
    std::string error;  // a run that could not be read or computed

    // Train: the task, position embeddings, steps and the folder runs go in (empty: the export folder).
    std::string train_task = vit::train::task_name(vit::train::kDefaultTask);
    bool train_position = true;
    int train_steps = 1000;
    std::string train_dir;
    LabTraining training;
};

namespace lab {
struct Show {
    bool open;
};
struct OpenRun {
    std::string dir;
};  // the window reads it
struct SetCheckpoint {
    int index;
};  // clamped
struct SetLayer {
    int layer;
};  // -1: the chosen one
struct SetSample {
    int sample;
};
struct SetQuerySquare {
    int square;
};  // kQuerySquare1, kQuerySquare2, kQueryCls
struct ShowSwap {
    bool show;
};
struct NextWrongSample {};  // the next sample the checkpoint shown answers wrongly
struct ExportSlides {
    std::string dir;
};  // the run's timeline as slides (the window draws them); empty: a new folder in export_dir
struct SetTraining {
    std::string task;
    bool position;
    int steps;
    std::string dir;
};
struct Train {};           // the window starts it
struct CancelTraining {};  // nothing of the run is kept
struct Explore {};         // the checkpoint shown, on its sample, in the explorer
}  // namespace lab
// What the lab's state alone answers (apply_lab, through act::Lab), and what
// the window's LabController carries out (cmd::Lab): reading runs, training.
using LabAction =
    std::variant<lab::Show, lab::SetCheckpoint, lab::SetLayer, lab::SetSample, lab::SetQuerySquare, lab::ShowSwap>;
using LabCommand = std::variant<lab::OpenRun, lab::SetTraining, lab::Train, lab::CancelTraining, lab::Explore,
                                lab::NextWrongSample, lab::ExportSlides>;

inline constexpr int kMaxLabSteps = 100000;  // as vitscope train --steps
// The lab's maps: viridis on one 0..1 scale at this opacity, not faded with
// the weight (a faded 0.4 over a coloured square was hard to see), so every
// head and step compare by colour alone.
inline constexpr float kLabMapOpacity = 0.8f;

void apply_lab(LabState& lab, const LabAction& a);

// The Learning lab's room in AppState.
struct LabRoom {
    LabState lab;  // File > Learning lab…
};

}  // namespace session
