// Hands the storage of traces nobody shows any more to the next forward pass.
// A trace at 448 px is ~90 MiB in a few dozen blocks; allocating it afresh
// for every photo while the previous one is still shown left the worker's heap
// with a different layout (and resident size) from photo to photo.
#pragma once
#include <memory>
#include <mutex>
#include <optional>

#include "vit/forward/forward.h"

namespace session {

class TraceRecycler {
public:
    TraceRecycler();
    // A trace to write the next forward pass into: the last one released, or empty.
    vit::Trace take();
    // Shares `trace`; when its last owner lets go (on any thread) it waits
    // here for take(), unless one is already waiting (then it is freed).
    std::shared_ptr<const vit::Trace> share(vit::Trace&& trace);

private:
    struct Spare {
        std::mutex mutex;
        std::optional<vit::Trace> trace;
    };
    std::shared_ptr<Spare> spare_;  // outlives the recycler while traces it shared are alive
};

}  // namespace session
