// Long computations (one forward pass per head, per input size...) run off the
// window's thread: they report progress after each step and stop between
// steps when asked to, returning what they finished.
#pragma once
#include <atomic>
#include <functional>

namespace vit {

struct TaskControl {
    // Called on the computing thread after each step: (steps done, steps in all).
    std::function<void(int done, int total)> progress;
    // Set to true from any thread to stop before the next step.
    const std::atomic<bool>* cancel = nullptr;

    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
    void report(int done, int total) const {
        if (progress) progress(done, total);
    }
};

}  // namespace vit
