#include "session/base/experiments.h"
#include "vit/base/file_system_calls.h"

#include <unistd.h>

#include <exception>
#include <new>

#include "vit/base/worker_pool.h"

namespace session {
namespace {

constexpr size_t kKeptResults = 16;  // enough for every page's latest result
constexpr int kBackgroundNice = 19;

}  // namespace

// Beside the window, not in its way: one core (the forward passes it runs
// split no work over the pool), below the window's threads in priority
// (Linux: nice applies per thread), so frames come first.
ExperimentRunner::ExperimentRunner(std::function<void()> on_change)
    : on_change_(std::move(on_change)),
      jobs_([this] { run_waiting(); },
            [] {
                vit::WorkerPool::keep_to_this_thread();
                vit::fs_calls::lower_this_thread_priority(kBackgroundNice);
            }) {}

ExperimentRunner::~ExperimentRunner() {
    std::lock_guard lock(mutex_);
    pending_ = nullptr;
    cancel_ = true;
}

void ExperimentRunner::start(const std::string& key, ExperimentJob job) {
    {
        std::lock_guard lock(mutex_);
        if (view_.running == key || (pending_ && pending_key_ == key)) return;  // already on its way
        if (!view_.running.empty()) cancel_ = true;
        pending_key_ = key;
        pending_ = std::move(job);
    }
    jobs_.wake();
}

void ExperimentRunner::cancel() {
    std::lock_guard lock(mutex_);
    pending_ = nullptr;
    if (!view_.running.empty()) cancel_ = true;
}

ExperimentsView ExperimentRunner::view() const {
    std::lock_guard lock(mutex_);
    ExperimentsView v = view_;
    // A job about to start counts as running: its page shows progress, the window keeps drawing, scripts wait.
    if (pending_ && v.running.empty()) v.running = pending_key_, v.done = v.total = 0;
    return v;
}

bool ExperimentRunner::idle() const {
    std::lock_guard lock(mutex_);
    return view_.running.empty() && !pending_;
}

void ExperimentRunner::run_waiting() {
    for (;;) {
        std::string key;
        ExperimentJob job;
        {
            std::lock_guard lock(mutex_);
            if (!pending_) return;
            key = std::move(pending_key_);
            job = std::move(pending_);
            pending_ = nullptr;
            cancel_ = false;
            view_.running = key;
            view_.done = view_.total = 0;
            view_.error.clear();
        }
        vit::TaskControl control;
        control.cancel = &cancel_;
        control.progress = [this](int done, int total) {
            {
                std::lock_guard lock(mutex_);
                view_.done = done, view_.total = total;
            }
            if (on_change_) on_change_();
        };
        ExperimentResult result;
        std::string error;
        try {
            result = job(control);
        } catch (const std::bad_alloc&) {
            error = "out of memory";
        } catch (const std::exception& e) {
            error = e.what();
        }
        {
            std::lock_guard lock(mutex_);
            view_.running.clear();
            view_.error = error;
            // A cancelled job keeps what it finished only when it says so by returning it.
            if (result) {
                if (!view_.results.count(key)) finished_.push_back(key);
                view_.results[key] = std::move(result);
                if (finished_.size() > kKeptResults) view_.results.erase(finished_.front()), finished_.pop_front();
            }
        }
        if (on_change_) on_change_();
    }
}

}  // namespace session
