// Why late layers light up the corners: a few patch tokens whose vectors grow
// to norms far above the rest, where the class token and many queries put
// their weight. Darcet et al. (2023), "Vision Transformers Need Registers",
// describe such high-norm tokens in low-information background patches: the
// model recycles them as scratch space for global information, and they
// draw attention for what they hold, not for the pixels under them.
#pragma once
#include <vector>

#include "vit/analysis/neighbourhood_claims.h"
#include "vit/forward/forward.h"

namespace vit {

// A token counts as high-norm at a layer when its norm is at least this many
// times the median norm of the patch tokens there (in the default model the
// corners reach 30 to 40 times the median from layer 7 on; nothing else
// passes 3 times it).
constexpr double kHighNormRatio = 10;

struct LayerNorms {
    std::vector<double> norm;  // ‖x_j‖ of every token leaving the block
    double median_patch_norm = 0;
    double top_patch_norm = 0;        // the largest patch token's norm
    double top_over_median = 0;       // top_patch_norm / median_patch_norm (0 when the median is 0)
    std::vector<int> high;            // the high-norm patch tokens, in token order
    double cls_weight_on_high = 0;    // CLS's weight on them, mean over the layer's heads
    double patch_weight_on_high = 0;  // the same for every patch query, averaged
};

// Per layer, the tokens leaving that block (the next block's input; the last
// block's output before the final LayerNorm). Throws vit::Error when the trace
// kept no token states or no attention weights.
std::vector<LayerNorms> token_norms(const Trace& t);

// The layers where high_norm_tokens holds (a patch leaving the layer is at
// least kHighNormRatio x the median patch's norm), in order: what a sentence
// about high-norm tokens on the photo on show rests on.
std::vector<int> layers_with_high_norm(const std::vector<LayerNorms>& norms);

// The high_norm_tokens claim of one layer (neighbourhood_claims.h): value =
// its largest patch norm, baseline = its median patch norm. It holds at
// ratio kHighNormRatio exactly when the layer has a high-norm patch.
ClaimValue high_norm_claim(const LayerNorms& layer);

// The high-norm patch tokens entering block `layer` (the tokens in its x_in
// over kHighNormRatio x their median patch norm): for layer l >= 1 the ones
// token_norms lists for layer l - 1. Throws vit::Error when the trace kept no
// token states or the layer is not the trace's.
std::vector<int> high_norm_entering(const Trace& t, int layer);

// The first layer with a high-norm token, -1 when none has.
int first_high_norm_layer(const std::vector<LayerNorms>& layers);

}  // namespace vit
