#include "vit/analysis/relevance.h"

#include <algorithm>
#include <limits>
#include <string>

#include "vit/analysis/rollout.h"
#include "vit/base/error.h"
#include "vit/forward/classes.h"

namespace vit {
namespace {

int patch_count(const Trace& t) { return t.grid * t.grid; }

void require_attention(const Trace& t) {
    if (t.layers.empty() || t.layers.back().heads.empty() || t.layers.back().heads[0].attn.size() == 0)
        throw Error("this trace was run without attention weights");
}

}  // namespace

Eigen::VectorXd last_layer_cls_attention(const Trace& t) {
    require_attention(t);
    const auto& heads = t.layers.back().heads;
    Eigen::VectorXd mean = Eigen::VectorXd::Zero(patch_count(t));
    for (const HeadTrace& h : heads) mean += h.attn.row(0).tail(patch_count(t)).transpose().cast<double>();
    return mean / static_cast<double>(heads.size());
}

Eigen::VectorXd cls_rollout_over_patches(const Trace& t) { return rollout_row(t, 0).tail(patch_count(t)); }

Eigen::VectorXd gradient_rollout(const Trace& t, const Gradients& g) {
    require_attention(t);
    if (g.attn.size() != t.layers.size()) throw Error("the gradients are not for this trace");
    // R = (I + Ā_last) ... (I + Ā_0); its CLS row e_0^T R, multiplied from the left.
    Eigen::RowVectorXd row = Eigen::RowVectorXd::Unit(t.tokens, 0);
    for (int l = static_cast<int>(t.layers.size()) - 1; l >= 0; --l) {
        const auto& heads = t.layers[l].heads;
        Eigen::MatrixXd mixing = Eigen::MatrixXd::Zero(t.tokens, t.tokens);
        for (size_t h = 0; h < heads.size(); ++h)
            mixing += (g.attn[l][h].cast<double>().array() * heads[h].attn.cast<double>().array()).max(0.0).matrix();
        mixing /= static_cast<double>(heads.size());
        row += row * mixing;
    }
    return row.tail(patch_count(t)).transpose();
}

Input without_patches(const Input& input, int patch, const std::vector<int>& patches) {
    const int grid = input.size / patch;
    Input out = input;
    for (int p : patches) {
        if (p < 0 || p >= grid * grid) throw Error("patch " + std::to_string(p) + " is not on the grid");
        const int y0 = p / grid * patch, x0 = p % grid * patch;
        for (int c = 0; c < 3; ++c)
            for (int y = y0; y < y0 + patch; ++y)
                std::fill_n(out.chw.begin() + (static_cast<size_t>(c) * input.size + y) * input.size + x0, patch, 0.0f);
    }
    return out;
}

double class_probability(const Model& model, const Input& input, int target_class) {
    TraceOptions plain;
    plain.keep_qkv = plain.keep_attention = plain.keep_states = false;
    return class_probabilities(forward(model, input, plain).logits)[target_class];
}

RelevanceMaps relevance_maps(const Model& model, const Input& input, const Trace& trace, int target_class,
                             const TaskControl& control) {
    const Gradients gradients = class_gradients(model, trace, target_class);  // checks the class
    RelevanceMaps r;
    r.target_class = target_class;
    r.probability = class_probabilities(trace.logits)[target_class];
    r.attention_last = last_layer_cls_attention(trace);
    r.rollout = cls_rollout_over_patches(trace);
    r.grad_rollout = gradient_rollout(trace, gradients);
    r.backward_seconds = gradients.seconds;
    const int patches = patch_count(trace);
    r.occlusion = Eigen::VectorXd::Constant(patches, std::numeric_limits<double>::quiet_NaN());
    for (int p = 0; p < patches; ++p) {
        if (control.cancelled()) {
            r.cancelled = true;
            break;
        }
        r.occlusion[p] =
            r.probability - class_probability(model, without_patches(input, model.patch, {p}), target_class);
        r.occlusion_done = p + 1;
        control.report(p + 1, patches);
    }
    return r;
}

}  // namespace vit
