// One block's intermediate results for every token, recomputed from the
// trace (its input x_in and the heads' outputs) with the forward pass's own
// kernels in its order, for `vitscope dump`:
//   x_in -> ln1 = LN1(x_in) -> heads -> attn_branch = W_O [o_1..o_H] (x layer scale 1)
//   -> mid = x_in + attn_branch -> ln2 = LN2(mid) -> mlp_branch = fc2(GELU(fc1(ln2))) (x layer scale 2)
//   -> leaving the block: mid + mlp_branch (the trace holds it: the next block's x_in).
#pragma once
#include "vit/forward/forward.h"
#include "vit/model/model.h"

namespace vit {

struct BlockParts {
    Mat ln1;          // N x dim: attention's input
    Mat attn_branch;  // N x dim: what attention adds to the residual stream
    Mat mid;          // N x dim: the residual stream after attention
    Mat ln2;          // N x dim: the MLP's input
    Mat mlp_branch;   // N x dim: what the MLP adds
};

// Throws vit::Error for a layer out of range or a trace without token states.
BlockParts block_parts(const Model& m, const Trace& t, int layer);

}  // namespace vit
