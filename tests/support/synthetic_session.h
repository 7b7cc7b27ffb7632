// session::Loaded sets around hand-made traces, for tests of the session
// layer that need no model (apply, adopt, what a selection shows).
#pragma once
#include <memory>
#include <string>
#include <utility>

#include "session/state/app_state.h"
#include "vit/forward/forward.h"
#include "session/dispatch/adopt.h"

namespace vit::testing {

// A trace of the given shape with uniform attention: apply and adopt look
// only at the shape (grid, prefix tokens, layers, heads).
inline vit::Trace shaped_trace(int grid, int heads, int layers = 2, int prefix = 1) {
    vit::Trace t;
    t.grid = grid;
    t.prefix = prefix;
    t.tokens = prefix + grid * grid;
    t.head_dim = 4;
    t.seconds = 0.25;
    t.layers.resize(layers);
    for (auto& layer : t.layers) {
        layer.heads.resize(heads);
        for (auto& h : layer.heads) h.attn = vit::Mat::Constant(t.tokens, t.tokens, 1.f / t.tokens);
    }
    return t;
}

// A set as the worker hands it over: the trace of a photo (no model, no pixels).
inline session::Loaded loaded_with(vit::Trace trace, const std::string& image_path = "photos/dog.jpg") {
    session::Loaded l;
    l.trace = std::make_shared<const vit::Trace>(std::move(trace));
    l.image_path = image_path;
    return l;
}

// A state that has adopted `trace`, as the window's is after its first run.
inline session::AppState state_with(vit::Trace trace, const std::string& image_path = "photos/dog.jpg") {
    session::AppState s;
    session::adopt(s, loaded_with(std::move(trace), image_path));
    return s;
}

}  // namespace vit::testing
