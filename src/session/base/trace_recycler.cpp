#include "session/base/trace_recycler.h"

namespace session {

TraceRecycler::TraceRecycler() : spare_(std::make_shared<Spare>()) {}

vit::Trace TraceRecycler::take() {
    std::lock_guard lock(spare_->mutex);
    vit::Trace t = spare_->trace ? std::move(*spare_->trace) : vit::Trace{};
    spare_->trace.reset();
    return t;
}

std::shared_ptr<const vit::Trace> TraceRecycler::share(vit::Trace&& trace) {
    return std::shared_ptr<const vit::Trace>(new vit::Trace(std::move(trace)), [spare = spare_](const vit::Trace* t) {
        std::unique_ptr<vit::Trace> owned(const_cast<vit::Trace*>(t));
        std::lock_guard lock(spare->mutex);
        if (!spare->trace) spare->trace = std::move(*owned);
    });
}

}  // namespace session
