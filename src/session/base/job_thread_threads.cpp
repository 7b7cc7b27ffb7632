// JobThread on a thread of its own (every build but the browser's one-thread
// one, see job_thread.h).
#include <condition_variable>
#include <mutex>
#include <thread>

#include "session/base/job_thread.h"

namespace session {

struct JobThread::Impl {
    std::function<void()> run_waiting;
    std::mutex mutex;
    std::condition_variable wake, idle;
    bool woken = false, running = false, stop = false;
    std::thread thread;  // last: starts after everything above exists

    void loop(const std::function<void()>& on_thread_start) {
        if (on_thread_start) on_thread_start();
        std::unique_lock lock(mutex);
        for (;;) {
            wake.wait(lock, [this] { return stop || woken; });
            if (stop) return;
            woken = false, running = true;
            lock.unlock();
            run_waiting();
            lock.lock();
            running = false;
            idle.notify_all();
        }
    }
};

JobThread::JobThread(std::function<void()> run_waiting, std::function<void()> on_thread_start)
    : impl_(std::make_unique<Impl>()) {
    impl_->run_waiting = std::move(run_waiting);
    impl_->thread = std::thread([impl = impl_.get(), start = std::move(on_thread_start)] { impl->loop(start); });
}

JobThread::~JobThread() {
    {
        std::lock_guard lock(impl_->mutex);
        impl_->stop = true;
    }
    impl_->wake.notify_all();
    impl_->thread.join();
}

void JobThread::wake() {
    {
        std::lock_guard lock(impl_->mutex);
        impl_->woken = true;
    }
    impl_->wake.notify_all();
}

void JobThread::finish_waiting() {
    std::unique_lock lock(impl_->mutex);
    impl_->idle.wait(lock, [this] { return !impl_->woken && !impl_->running; });
}

void JobThread::run_turns() {}

bool JobThread::has_threads() { return true; }

}  // namespace session
