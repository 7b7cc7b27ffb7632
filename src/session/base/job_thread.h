// Where a background worker's jobs run: on a thread of its own wherever the
// platform has threads, or in turns on the window's thread between frames
// where it has none (the browser build for pages served without COOP/COEP,
// docs/browser.md). The worker (ModelWorker, ExperimentRunner, LabTrainer,
// ModelDownloader) keeps its own queue under its own mutex; this only says
// when and where `run_waiting` runs. One implementation per platform:
// job_thread_threads.cpp, job_thread_turns.cpp.
#pragma once
#include <functional>
#include <memory>

namespace session {

class JobThread {
public:
    // run_waiting runs every job the worker has waiting and returns when none
    // is left. on_thread_start runs once on the job's own thread, before any
    // job (its priority, its share of the kernels' pool); with no threads it never runs.
    explicit JobThread(std::function<void()> run_waiting, std::function<void()> on_thread_start = {});
    ~JobThread();  // lets a running job finish, then joins
    JobThread(const JobThread&) = delete;
    JobThread& operator=(const JobThread&) = delete;

    // A job is waiting: run_waiting runs soon (threads: now, turns: before the next frame).
    void wake();
    // Returns once run_waiting has run for every wake() before this call and
    // returned (turns: runs it here).
    void finish_waiting();

    // The window's thread calls this between frames: with no threads, each
    // woken JobThread runs its jobs here; with threads it does nothing.
    static void run_turns();
    // False in a build whose background jobs run in turns (their progress is not drawn while they run).
    static bool has_threads();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace session
