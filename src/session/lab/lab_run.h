// A training run's folder (vitscope train -o RUN, or the Learning lab's
// Train) as the Learning lab reads it: RUN/config (the task, whether it has
// position embeddings), RUN/log.csv (one row per checkpoint, each naming a
// complete RUN/step_NNNNNN model folder) and RUN/samples/samples.csv (the
// held-out images). GUI-free; throws vit::Error with one line on a folder
// that is not a run.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "vit/train/trainer.h"

namespace session {

struct LabRun {
    std::string dir;
    std::string task;                        // a name of vit/train/task_list.inc
    bool position = true;                    // trained with position embeddings
    int steps = 0;                           // the steps the run was asked for (config)
    std::vector<vit::train::LogRow> log;     // one per checkpoint, in step order
    std::vector<std::string> samples;        // file names in RUN/samples, in samples.csv's order
    std::vector<std::string> sample_labels;  // their class names

    std::string checkpoint_dir(size_t index) const;  // RUN/step_NNNNNN of log[index]
    std::string sample_path(size_t index) const;     // RUN/samples/FILE
    // The index of the last checkpoint at or before `step` (0 when all come after it).
    size_t checkpoint_at(int step) const;
};

std::shared_ptr<const LabRun> read_lab_run(const std::string& dir);

// log.csv's rows (step,loss,accuracy[,train_loss,checkpoint]); `where` names the file in errors.
std::vector<vit::train::LogRow> parse_log_csv(const std::string& text, const std::string& where);

// The run beside `run` (a sibling folder in its parent) with the same task and
// number of steps and the other position setting, the one whose name is closest (most characters
// in common at the start); empty when there is none. Folders that are not runs are skipped.
std::string find_pair_run(const LabRun& run);

}  // namespace session
