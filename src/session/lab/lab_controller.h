// The window's side of the Learning lab: carries out the lab actions that
// read files or start work (opening a run, training, cancelling, choosing
// what to train, opening a checkpoint in the explorer), and each frame brings
// the training's progress into the state and recomputes what the timeline
// shows when its choice changed: the checkpoint's model (read once and kept)
// run on the sample, each head's row for the query, every checkpoint's numbers
// on the sample (when the run or sample changed), the sentences. A tiny
// model's forward pass on 65 tokens takes well under a millisecond; reading a
// checkpoint (0.9 MB) a few, once.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "session/lab/lab_trainer.h"
#include "session/state/app_state.h"

namespace session {

// A checkpoint and a sample for the explorer (File > Open model, then the photo).
struct LabExplore {
    std::string model_dir, image;
};

class LabController {
public:
    explicit LabController(std::function<void()> on_change = {}) : trainer_(std::move(on_change)) {}

    // Throws vit::Error (one line, nothing changed) on a bad run or setting.
    std::optional<LabExplore> handle(AppState& s, const LabCommand& a);
    void sync(AppState& s);

private:
    void open_run(AppState& s, const std::string& dir);
    std::shared_ptr<const vit::Model> model(const std::string& dir);
    LabCheckpoint checkpoint(const LabRun& run, size_t index, const vit::Image& sample, int layer, int query,
                             int square1, int square2);
    void next_wrong_sample(LabState& lab);

    LabTrainer trainer_;
    std::map<std::string, std::shared_ptr<const vit::Model>> models_;  // by checkpoint folder
    std::string computed_;                                             // the choice the view was computed for
    std::string series_for_;                                           // the run and sample lab.series is of
    std::string adopted_run_;                                          // the finished training run already opened
};

}  // namespace session
