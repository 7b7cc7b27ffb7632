// Long what-if computations the Questions pages ask for (a forward pass per
// head for the ablation table, timings at several input sizes, shuffled and
// shifted runs) run in the background (a JobThread), one at a time, so the window
// stays responsive; they report progress and stop when cancelled.
//
// A page emits cmd::RunExperiment with a key naming what it computes and for
// which model and photo (e.g. "ablation#7", 7 the Loaded generation) and a job
// closure. The window hands it to the runner; each frame the state's
// `experiments` snapshot says what is running and holds finished results by key.
#pragma once
#include <atomic>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "session/base/job_thread.h"
#include "vit/base/task_control.h"

namespace session {

using ExperimentResult = std::shared_ptr<const void>;
using ExperimentJob = std::function<ExperimentResult(const vit::TaskControl&)>;

struct ExperimentsView {
    std::string running;                              // key of the job running; empty when idle
    int done = 0, total = 0;                          // its progress
    std::string error;                                // the last job's error, if it failed
    std::map<std::string, ExperimentResult> results;  // finished jobs by key (newest few)

    // The finished result for key as T, or null.
    template <class T>
    std::shared_ptr<const T> result(const std::string& key) const {
        auto it = results.find(key);
        return it == results.end() ? nullptr : std::static_pointer_cast<const T>(it->second);
    }
    bool is_running(const std::string& key) const { return running == key; }
};

class ExperimentRunner {
public:
    explicit ExperimentRunner(std::function<void()> on_change = {});
    ~ExperimentRunner();  // cancels and waits for the job running
    ExperimentRunner(const ExperimentRunner&) = delete;
    ExperimentRunner& operator=(const ExperimentRunner&) = delete;

    // Starts job under key; a job running under another key is cancelled first.
    void start(const std::string& key, ExperimentJob job);
    void cancel();
    ExperimentsView view() const;
    // No job running and none waiting to start (view() shows a started job
    // only once the runner has picked it up).
    bool idle() const;

private:
    void run_waiting();  // jobs_'s work: the job waiting, and any started meanwhile

    std::function<void()> on_change_;
    mutable std::mutex mutex_;
    std::string pending_key_;
    ExperimentJob pending_;
    ExperimentsView view_;
    std::deque<std::string> finished_;  // keys of view_.results, oldest first (the oldest goes when full)
    std::atomic<bool> cancel_{false};
    JobThread jobs_;  // last: runs after everything above exists
};

}  // namespace session
