// "Only attention mixes tokens": one token's way through a block, part by
// part, recomputed from the trace with the forward pass's own kernels, and the
// checks that the MLP works on each token alone.
//
//   x_i (residual before) -> LN1 -> heads o_1..o_H -> concat -> W_O (x layer scale 1)
//   -> added: residual after attention -> LN2 -> MLP (x layer scale 2) -> added: residual after
#pragma once
#include <string>
#include <vector>

#include "vit/forward/forward.h"
#include "vit/model/model.h"

namespace vit {

struct TokenPath {
    int layer = 0, token = 0;
    bool layer_scale = false;       // the model scales each branch (DINOv2)
    std::vector<Vec> head_outputs;  // o_h = sum_j a_hj v_j (head_dim each), from the trace
    Vec attention_output;           // W_O [o_1 .. o_H] + b (times layer scale 1): what attention adds
    Vec residual_before;            // the token entering the block
    Vec residual_after_attention;   // residual_before + attention_output
    Vec mlp_output;                 // fc2(GELU(fc1(LN2(.)))) (times layer scale 2): what the MLP adds
    Vec residual_after;             // residual_after_attention + mlp_output: the token leaving the block

    // The MLP output of this token computed from its row alone, against the
    // same computed for all tokens at once as the forward pass does: max |diff|.
    double mlp_alone_max_abs_diff = 0;
    // What-if: every other token's MLP input (after LN2) replaced by zeros;
    // the change in this token's MLP output (max |diff|; none expected).
    double mlp_others_zeroed_max_abs_diff = 0;
    // What-if: every other token's attention input (after LN1) replaced by
    // zeros; the change in this token's attention output (large: attention mixes).
    double attention_others_zeroed_max_abs_diff = 0;
};

// Needs a trace with its states (x_in) and head outputs (keep_states, keep_qkv)
// of this model. Throws vit::Error on a layer or token out of range.
TokenPath token_path(const Model& model, const Trace& trace, int layer, int token);

// The path's parts with their Euclidean norms, in order: head_0 .. head_{H-1},
// attention_output, residual_before, residual_after_attention, mlp_output,
// residual_after (the names are the CSV's `part` column).
struct PartNorm {
    std::string part;
    double norm = 0;
};
std::vector<PartNorm> token_path_norms(const TokenPath& path);

}  // namespace vit
