// Head ablation, a what-if: the network run again with one head's output
// removed (its columns of the attention context set to zero before the output
// projection) at one layer, everything else as the model computes it.
#pragma once
#include "vit/base/task_control.h"
#include "vit/forward/classes.h"
#include "vit/forward/forward.h"

namespace vit {

// The logits of the model with head `head` of layer `layer` removed (a plain
// forward: no trace kept). Throws vit::Error for a layer or head out of range
// or a model without a classifier.
Vec logits_without_head(const Model& model, const Input& input, int layer, int head);

// One head removed: the top classes before and after, and how much the
// model's top-1 class loses (or gains).
struct HeadRemoved {
    std::vector<ClassProbability> before, after;  // top-k of the model (real_logits) and of the what-if
    double top1_change = 0;                       // p_after(before[0].index) - before[0].probability
};
// real_logits: the model's own logits on this input (e.g. the trace's).
HeadRemoved remove_head(const Model& model, const Input& input, const Vec& real_logits, int layer, int head, int k = 5);

// The top-1 probability change for every layer and head removed in turn.
struct AblationTable {
    int top1_class = 0;           // the real model's most probable class
    double top1_probability = 0;  // its probability in the real model
    Eigen::MatrixXd top1_change;  // layers x heads: p(top1) with the head removed - p(top1); NaN where not computed
    int done = 0;                 // heads computed (in layer order, then head order)
    bool cancelled = false;       // stopped by TaskControl::cancel before every head was done
};
// One real forward, then one forward per layer and head (ViT-Ti: 1 + 144);
// reports progress after each forward and stops between forwards when asked.
AblationTable ablation_table(const Model& model, const Input& input, const TaskControl& control = {});

}  // namespace vit
