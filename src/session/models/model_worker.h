// Loads models and photos and runs the forward pass in the background (a
// JobThread), so the window never blocks on it. The worker keeps the last good model and
// photo: a request that fails leaves them in place and reports the error.
// A second photo (File > Compare with…) runs through the same model; a new
// model re-runs it too.
#pragma once
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "session/base/job_thread.h"
#include "session/base/loaded.h"
#include "session/base/trace_recycler.h"
#include "session/base/work_progress.h"

namespace session {

class ModelWorker {
public:
    struct Request {
        std::string model_dir;         // empty: keep the current model
        std::string image_path;        // empty: keep the current photo
        std::string compare_path;      // empty: keep the current second photo
        int input_size = -1;           // the model input's side in pixels; 0: the model's own; -1: keep
                                       // (a new model starts at its own size unless the request sets one)
        bool drop_compare = false;     // no second photo any more (a lesson saved without one)
        bool whole = false;            // a lesson: every part loads and runs, or nothing changes
        std::string lesson_path = {};  // that lesson's file, which its error names first
    };
    struct Result {
        Loaded loaded;         // the new set, or the previous one when nothing new succeeded
        bool changed = false;  // loaded differs from the previous set
        Loaded compared;       // the second photo's set (empty: none)
        bool compared_changed = false;
        std::string error;  // empty on success; one line otherwise
    };

    // on_done runs in the background after each job (the window wakes its event loop with it).
    explicit ModelWorker(std::function<void()> on_done = {});
    ~ModelWorker() = default;  // jobs_ waits for a running job to finish
    ModelWorker(const ModelWorker&) = delete;
    ModelWorker& operator=(const ModelWorker&) = delete;

    // Queues a request; a request still waiting is merged with it (the newest
    // model and photo win), so quick successive opens do not pile up.
    void submit(const Request& request);
    // The result of the last finished job, once.
    std::optional<Result> poll();
    // Blocks until no job is queued or running, then returns the result as poll()
    // would: the window opening a lesson given at start-up waits for it.
    Result wait();
    WorkProgress progress() const;

private:
    void run_waiting();  // jobs_'s work: every request waiting, one after the other
    Result process(const Request& request);
    // process() without the rollback of a whole request.
    Result process_parts(const Request& request);
    // Runs the second photo again when it or the model changed; errors appended.
    bool process_compare(const Request& request, std::vector<std::string>& errors);
    void set_stage(const std::string& stage);
    // Preprocesses next.image for next.model at input_size and runs the forward
    // pass into next; `step` names the step under way when it throws.
    void run_into(Loaded& next, int input_size, const char*& step, const char* which);

    std::function<void()> on_done_;
    mutable std::mutex mutex_;
    std::optional<Request> pending_;
    std::optional<Result> done_;
    bool running_ = false;
    std::string stage_;
    double started_ = 0;
    Loaded current_;         // only jobs_ touches it
    Loaded compared_;        // the same for the second photo
    int input_size_ = 0;     // the size current_ was run at as asked for (0: the model's own)
    int compared_size_ = 0;  // the size compared_ was run at
    int generation_ = 0;
    TraceRecycler traces_;  // the storage of traces no longer shown, for the next run
    JobThread jobs_;        // last: runs after everything above exists
};

}  // namespace session
