// Attention rollout (Abnar & Zuidema 2020): how much each token, entering the
// first block, flows into each token leaving the last, when attention is the
// only mixing and the residual connection counts as half of it. Per layer
//     A~_l = 0.5 * mean over heads(A_l) + 0.5 * I,  rows renormalised to sum 1,
// and the rollout is the product from the first layer up: A~_last ... A~_1 A~_0.
// It assumes the MLPs and the value vectors carry tokens unchanged: a model of
// the flow, not a quantity the network computes.
#pragma once
#include "vit/forward/forward.h"

namespace vit {

// The N x N rollout over layers 0..through_layer (-1: every layer).
Eigen::MatrixXd attention_rollout(const Trace& t, int through_layer = -1);
// Row `query` of the same product (e.g. 0: where CLS gathers from), computed
// as a row vector times each layer's matrix: N^2 per layer, not N^3.
Eigen::VectorXd rollout_row(const Trace& t, int query, int through_layer = -1);

}  // namespace vit
