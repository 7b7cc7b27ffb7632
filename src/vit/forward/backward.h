// The backward pass: the gradient of one class's logit with respect to every
// layer's attention weights (per head) and token states, for the relevance
// page (gradient-weighted rollout) and for anyone who wants d logit / d A.
//
// It runs block by block from the top, recomputing each block's forward in
// double from the block input the trace kept (so the trace need not hold the
// norms' and the MLP's intermediates), then propagating the gradient down
// through the MLP, the LayerNorms, the output projection, a.v, the softmax and
// the q, k, v projections. CLS, the distillation token (its half of the
// logits), registers and layer scale are all handled as the forward does.
#pragma once
#include <vector>

#include "vit/base/tensor.h"
#include "vit/forward/forward.h"
#include "vit/model/model.h"

namespace vit {

struct Gradients {
    int target_class = 0;
    double logit = 0;                    // the class's logit (recomputed in double)
    std::vector<std::vector<Mat>> attn;  // [layer][head]: N x N, d logit / d A (after the softmax)
    std::vector<Mat> x_in;               // [layer]: N x dim, d logit / d the block's input tokens
    Mat x_out;                           // N x dim, d logit / d the last block's output (before the final norm)
    double seconds = 0;                  // wall time of the backward pass
};

// Bytes the gradients of a run with this trace will hold (checked against the
// memory budget before anything is allocated).
size_t gradient_bytes(const Trace& trace);

// d logits[target_class] / d (every layer's attention weights and token
// states). The trace must keep its states and attention (the default
// TraceOptions). Throws vit::Error for a model without a classifier, a class
// out of range, a trace without states, or gradients over the memory budget.
Gradients class_gradients(const Model& model, const Trace& trace, int target_class);

}  // namespace vit
