// JobThread in turns on the window's thread: the browser build for pages
// served without COOP/COEP has no threads (see job_thread.h). A job runs
// whole between two frames, so the page holds still while it computes.
#include <algorithm>
#include <vector>

#include "session/base/job_thread.h"

namespace session {
namespace {

std::vector<JobThread*>& all_job_threads() {
    static std::vector<JobThread*> all;
    return all;
}

}  // namespace

struct JobThread::Impl {
    std::function<void()> run_waiting;
    bool woken = false;
};

JobThread::JobThread(std::function<void()> run_waiting, std::function<void()>) : impl_(std::make_unique<Impl>()) {
    impl_->run_waiting = std::move(run_waiting);
    all_job_threads().push_back(this);
}

JobThread::~JobThread() { std::erase(all_job_threads(), this); }

void JobThread::wake() { impl_->woken = true; }

void JobThread::finish_waiting() {
    while (impl_->woken) {
        impl_->woken = false;
        impl_->run_waiting();
    }
}

void JobThread::run_turns() {
    // A copy: a job may make or end a JobThread (the window replacing a worker).
    const std::vector<JobThread*> woken_now = all_job_threads();
    for (JobThread* t : woken_now)
        if (std::find(all_job_threads().begin(), all_job_threads().end(), t) != all_job_threads().end())
            t->finish_waiting();
}

bool JobThread::has_threads() { return false; }

}  // namespace session
