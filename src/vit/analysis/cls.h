// How the class token gathers the image, layer by layer: CLS's weight on
// itself and on the prefix tokens (CLS, distillation, registers), per head.
// (CLS's maps are the trace's row 0: attention_row(t, layer, head, 0).)
#pragma once
#include "vit/forward/forward.h"

namespace vit {

struct ClsWeights {
    Eigen::MatrixXd self;    // layers x heads: a_CLS,CLS
    Eigen::MatrixXd prefix;  // layers x heads: sum of CLS's weights on the prefix tokens (itself included);
                             // 1 - prefix is its weight on the patches
    Eigen::VectorXd self_mean, prefix_mean;  // per layer, the mean over heads
};
ClsWeights cls_weights(const Trace& t);

// The same two numbers read off one row of weights over every token (a head's
// CLS row, or the mean of some heads' rows, as a map shows it): the weight on
// token 0 and the sum over the prefix tokens, what the map leaves off the photo.
struct PrefixWeights {
    double self = 0, prefix = 0;
};
PrefixWeights prefix_weights(const Trace& t, const Vec& row);

}  // namespace vit
