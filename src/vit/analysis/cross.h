// The cross-attention what-if ("self vs cross"): queries from one photo's
// tokens, keys and values from another's, at the same layer and head. Each
// photo's q, k, v are its own trace's (its tokens at that layer through that
// layer's W_Q, W_K, W_V), so only the pairing is new. Not what the model
// computes: the same arithmetic as a decoder attending to an encoder.
#pragma once
#include "vit/forward/forward.h"

namespace vit {

struct CrossAttentionRow {
    Vec raw;      // q_A,i . k_B,j for every token j of B
    Vec scaled;   // raw / sqrt(d_k)
    Vec weights;  // softmax(scaled), over B's tokens
    Vec output;   // sum_j weights_j v_B,j (head_dim)
};

// Query token `query` of `queries` (photo A) against every token of
// `keys_values` (photo B) at (layer, head). The two traces may differ in token
// count; with the same trace twice it is that trace's own attention row.
// Throws vit::Error on indices out of range, traces without Q/K/V, or
// different head sizes.
CrossAttentionRow cross_attention_row(const Trace& queries, const Trace& keys_values, int layer, int head, int query);

}  // namespace vit
