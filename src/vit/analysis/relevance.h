// Does the attention map explain the prediction? Four maps over the patches
// for one class, side by side:
//   attention_last  the last layer's CLS row, mean over heads (the same for every class)
//   rollout         attention rollout's CLS row (rollout.h; the same for every class)
//   grad_rollout    gradient-weighted rollout (Chefer, Gur & Wolf, ICCV 2021,
//                   "Generic Attention-model Explainability"): per layer
//                   Ā = mean over heads of max(0, dlogit/dA ⊙ A), R ← R + Ā R
//                   from R = I, the CLS row over the patches (not renormalised)
//   occlusion       p(class) of the photo minus p(class) with that patch's
//                   pixels set to 0 in the normalised input (one forward per patch)
// Every map holds one value per patch in raster order from the top left.
#pragma once
#include <vector>

#include "vit/base/task_control.h"
#include "vit/forward/backward.h"
#include "vit/forward/forward.h"

namespace vit {

Eigen::VectorXd last_layer_cls_attention(const Trace& trace);
Eigen::VectorXd cls_rollout_over_patches(const Trace& trace);
Eigen::VectorXd gradient_rollout(const Trace& trace, const Gradients& gradients);

// The input with the listed patches' pixels (patch indices in raster order)
// set to 0, the normalised value: the removal of Chefer et al.'s perturbation test.
Input without_patches(const Input& input, int patch_size, const std::vector<int>& patches);
// p(class) under the softmax of a plain forward pass (no trace kept).
double class_probability(const Model& model, const Input& input, int target_class);

struct RelevanceMaps {
    int target_class = 0;
    double probability = 0;  // p(class) on the photo
    Eigen::VectorXd attention_last, rollout, grad_rollout, occlusion;
    double backward_seconds = 0;
    int occlusion_done = 0;  // patches occluded (all of them unless cancelled)
    bool cancelled = false;  // stopped before every patch was occluded; occlusion is NaN beyond
};

// The four maps for a class. One backward pass, then one forward per patch
// for occlusion, reporting progress after each and stopping when asked.
// Throws vit::Error for a class out of range or a model without a classifier.
RelevanceMaps relevance_maps(const Model& model, const Input& input, const Trace& trace, int target_class,
                             const TaskControl& control = {});

}  // namespace vit
