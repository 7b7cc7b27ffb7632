#include "vit/base/worker_pool.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>

#include <pthread.h>

namespace vit {
namespace {

thread_local bool inside_task = false;
thread_local bool kept_to_this_thread = false;  // keep_to_this_thread()
// A child of fork() has none of the parent's worker threads: it runs inline.
std::atomic<bool> forked_child{false};

int configured_threads() {
    if (const char* env = std::getenv("VITSCOPE_THREADS"); env && *env) return std::clamp(std::atoi(env), 1, 256);
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

// Before sleeping on a futex, a waiting thread polls for this long: in a
// forward pass the next job (or a worker's finish) comes within microseconds,
// and waking a sleeping thread costs tens of them, more in a VM. Short enough
// that an idle or busy machine loses nothing worth having.
constexpr auto kSpin = std::chrono::microseconds(100);

// Tells the CPU this is a spin loop (x86's pause); WebAssembly has no such hint.
inline void spin_pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

// Returns once value != old: polls for kSpin, then sleeps.
void wait_while(const std::atomic<unsigned>& value, unsigned old) {
    const auto until = std::chrono::steady_clock::now() + kSpin;
    do {
        for (int i = 0; i < 64; ++i) {
            if (value.load(std::memory_order_acquire) != old) return;
            spin_pause();
        }
    } while (std::chrono::steady_clock::now() < until);
    value.wait(old);
}

}  // namespace

void WorkerPool::keep_to_this_thread() { kept_to_this_thread = true; }

int WorkerPool::threads_here() { return kept_to_this_thread ? 1 : shared().threads(); }

WorkerPool& WorkerPool::shared() {
    // Never destroyed: joining at exit would race other static destructors.
    static WorkerPool* pool = [] {
        ::pthread_atfork(nullptr, nullptr, [] { forked_child = true; });
        return new WorkerPool(configured_threads());
    }();
    return *pool;
}

WorkerPool::WorkerPool(int threads) : done_(new std::atomic<unsigned>[std::max(threads, 1)]) {
    for (int i = 1; i < threads; ++i) {
        done_[i] = 0;
        workers_.emplace_back([this, i] { work_loop(i); });
    }
}

WorkerPool::~WorkerPool() {
    {
        std::lock_guard lock(one_job_at_a_time_);
        stopping_ = true;
        job_.fetch_add(1);  // the job counter's release publishes stopping_
    }
    job_.notify_all();
    for (auto& w : workers_) w.join();
}

void WorkerPool::run_share() {
    inside_task = true;
    for (int i; (i = next_task_.fetch_add(1, std::memory_order_relaxed)) < count_;) (*task_)(i);
    inside_task = false;
}

void WorkerPool::work_loop(int index) {
    unsigned seen = 0;
    for (;;) {
        wait_while(job_, seen);
        seen = job_.load();
        if (stopping_) return;
        run_share();
        done_[index].store(seen);
        done_[index].notify_one();
    }
}

void WorkerPool::run(int count, const std::function<void(int)>& task) {
    if (inside_task || kept_to_this_thread || workers_.empty() || count <= 1 || forked_child) {
        for (int i = 0; i < count; ++i) task(i);
        return;
    }
    std::lock_guard lock(one_job_at_a_time_);
    task_ = &task;
    count_ = count;
    next_task_.store(0, std::memory_order_relaxed);
    const unsigned job = job_.fetch_add(1) + 1;  // publishes task_, count_ and next_task_
    job_.notify_all();
    run_share();
    // Every worker acknowledges every job, so none can still be reading
    // task_ or count_ when the next job overwrites them.
    for (size_t w = 1; w <= workers_.size(); ++w)
        for (unsigned seen; (seen = done_[w].load()) != job;) wait_while(done_[w], seen);
}

}  // namespace vit
