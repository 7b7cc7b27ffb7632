// The Learning lab's Train: vit::train::train in the background (a JobThread), writing
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
#include <optional>
#include <string>

#include "session/base/job_thread.h"
#include "session/lab/lab_state.h"
#include "vit/base/output_file.h"
#include "vit/train/trainer.h"

namespace session {

class LabTrainer {
public:
    explicit LabTrainer(std::function<void()> on_change = {});
    ~LabTrainer();  // cancels and waits for the run to stop
    LabTrainer(const LabTrainer&) = delete;
    LabTrainer& operator=(const LabTrainer&) = delete;

    // Refuses (vit::Error, one line) a run folder the rules refuse, one
    // while training runs, or any where background work runs in turns
    // (JobThread: the browser's one-thread build); otherwise starts at once.
    void start(const vit::train::TrainSettings& settings, const std::string& run, const vit::OutputRules& rules);
    void cancel();
    LabTraining view() const;

private:
    void run_waiting();  // jobs_'s work: the run started, if any
    void work(vit::train::TrainSettings settings, std::shared_ptr<vit::OutputFolder> out);

    std::function<void()> on_change_;
    mutable std::mutex mutex_;
    LabTraining view_;
    std::atomic<bool> cancel_{false};
    std::optional<vit::train::TrainSettings> pending_;  // a run started, not yet begun
    std::shared_ptr<vit::OutputFolder> pending_out_;
    JobThread jobs_;  // last: runs after everything above exists
};

}  // namespace session
