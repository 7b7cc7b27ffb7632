// The Learning lab's Train: vit::train::train on a thread of its own, writing
// a run folder as `vitscope train -o RUN` does (config, samples, a model
// folder per checkpoint, log.csv), so the window stays responsive. The run is
// written into a temporary folder beside RUN (vit::OutputFolder: the output
// rule, and Ctrl+C or a kill removes it) and renamed into place when training
// ends; Cancel removes it, leaving nothing.
#pragma once
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "session/lab/lab_state.h"
#include "vit/base/output_file.h"
#include "vit/train/trainer.h"

namespace session {

class LabTrainer {
public:
    explicit LabTrainer(std::function<void()> on_change = {}) : on_change_(std::move(on_change)) {}
    ~LabTrainer();  // cancels and joins
    LabTrainer(const LabTrainer&) = delete;
    LabTrainer& operator=(const LabTrainer&) = delete;

    // Refuses (vit::Error, one line) a run folder the rules refuse or one
    // while training runs; otherwise starts at once.
    void start(const vit::train::TrainSettings& settings, const std::string& run, const vit::OutputRules& rules);
    void cancel();
    LabTraining view() const;

private:
    void work(vit::train::TrainSettings settings, std::shared_ptr<vit::OutputFolder> out);

    std::function<void()> on_change_;
    mutable std::mutex mutex_;
    LabTraining view_;
    std::atomic<bool> cancel_{false};
    std::thread thread_;
};

}  // namespace session
