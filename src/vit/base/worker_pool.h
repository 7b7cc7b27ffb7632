// The threads the forward pass splits its work over (one per hardware thread).
// Idle workers poll for 100 us, then sleep on a futex (std::atomic::wait): a
// busy machine, or the window's software renderer, does not starve them the
// way OpenMP's spinning barriers were starved (10x slower under load).
#pragma once
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace vit {

class WorkerPool {
public:
    // One pool for the process: the hardware threads, or $VITSCOPE_THREADS.
    static WorkerPool& shared();
    explicit WorkerPool(int threads);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    int threads() const { return static_cast<int>(workers_.size()) + 1; }
    // Calls task(i) for every i in [0, count), each thread (the caller one of
    // them) taking the next i not yet taken, so a thread the machine holds up
    // leaves its share to the others instead of everyone waiting for it.
    // Returns when all are done. Calls from inside a task, or from a second
    // thread while a job runs, wait or run inline.
    void run(int count, const std::function<void(int)>& task);

    // From now on, work this thread asks for runs on this thread alone, in
    // order: background work (the window's experiments) that leaves the
    // other cores to the window. The results are the same: each task's
    // arithmetic does not depend on which thread runs it.
    static void keep_to_this_thread();
    // How many threads work this thread asks for runs on: 1 after
    // keep_to_this_thread(), else the shared pool's.
    static int threads_here();

private:
    void work_loop(int index);
    void run_share();

    std::vector<std::thread> workers_;
    std::unique_ptr<std::atomic<unsigned>[]> done_;  // per worker: the last job it finished
    std::mutex one_job_at_a_time_;
    const std::function<void(int)>* task_ = nullptr;
    int count_ = 0;
    std::atomic<int> next_task_{0};
    std::atomic<unsigned> job_{0};
    bool stopping_ = false;
};

}  // namespace vit
