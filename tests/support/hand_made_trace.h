// Traces filled by hand, for tests of the analyses that read a Trace: the
// attention weights (and Q, K) are whatever the test says, no forward pass.
#pragma once
#include <functional>

#include "vit/forward/forward.h"

namespace vit::testing {

// A trace of `layers` x `heads` on a grid x grid patch layout after `prefix`
// tokens, every head's N x N weights from attention(layer, head).
inline Trace hand_made_trace(int grid, int prefix, int layers, int heads,
                             const std::function<Mat(int layer, int head)>& attention, int head_dim = 4) {
    Trace t;
    t.grid = grid;
    t.prefix = prefix;
    t.tokens = prefix + grid * grid;
    t.head_dim = head_dim;
    t.layers.resize(layers);
    for (int l = 0; l < layers; ++l) {
        t.layers[l].heads.resize(heads);
        for (int h = 0; h < heads; ++h) t.layers[l].heads[h].attn = attention(l, h);
    }
    return t;
}

// N x N weights: every row uniform over all N keys.
inline Mat uniform_rows(int n) { return Mat::Constant(n, n, 1.0f / static_cast<float>(n)); }

}  // namespace vit::testing
