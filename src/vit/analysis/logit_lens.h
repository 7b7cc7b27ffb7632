// The logit lens: the class token as it leaves each block, put through the
// final LayerNorm and the classifier head, as if the network stopped there.
// After the last block it is the model's own prediction. (For a distilled
// DeiT the distillation token goes through its head too, as in the model.)
#pragma once
#include <vector>

#include "vit/forward/classes.h"
#include "vit/forward/forward.h"

namespace vit {

struct LensLayer {
    int layer = 0;                      // the block the token leaves
    std::vector<ClassProbability> top;  // the lens's most probable classes
    double final_top1_probability = 0;  // the probability it gives the model's final top-1 class
};
struct LogitLens {
    int final_top1 = 0;             // the model's most probable class (argmax of the trace's logits)
    std::vector<LensLayer> layers;  // one per block, in order
};
// Needs a trace run with keep_states (the block inputs and the last block's
// output). Throws vit::Error "this model has no classifier head" for a model
// without one.
LogitLens logit_lens(const Model& model, const Trace& t, int top_k = 3);

}  // namespace vit
