#include "vit/analysis/logit_lens.h"

#include "vit/base/error.h"
#include "vit/kernels/kernels.h"

namespace vit {
namespace {

// The tokens the classifier reads (CLS, and the distillation token), as they
// leave block `layer`: the next block's input, or the last block's output.
const Mat& state_leaving(const Trace& t, size_t layer) {
    const Mat& x = layer + 1 < t.layers.size() ? t.layers[layer + 1].x_in : t.last_block_out;
    if (x.size() == 0) throw Error("this trace was run without the token states");
    return x;
}

}  // namespace

LogitLens logit_lens(const Model& m, const Trace& t, int top_k) {
    if (m.head.w.size() == 0) throw Error("this model has no classifier head");
    if (t.logits.size() == 0) throw Error("this trace was run without the classifier");
    LogitLens lens;
    lens.final_top1 = rank_classes(t.logits, 1)[0].index;
    const Eigen::Index read = m.has_dist_token ? 2 : 1;
    for (size_t l = 0; l < t.layers.size(); ++l) {
        Mat normed;
        layer_norm(state_leaving(t, l).topRows(read), m.norm_w, m.norm_b, m.config.ln_eps, normed);
        const Vec logits = classifier_logits(m, normed);
        lens.layers.push_back(
            {static_cast<int>(l), rank_classes(logits, top_k), class_probabilities(logits)[lens.final_top1]});
    }
    return lens;
}

}  // namespace vit
