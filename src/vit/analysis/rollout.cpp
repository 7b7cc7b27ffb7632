#include "vit/analysis/rollout.h"

#include <string>

#include "vit/analysis/attention_rows.h"
#include "vit/base/error.h"

namespace vit {
namespace {

int last_layer(const Trace& t, int through_layer) {
    const int layers = static_cast<int>(t.layers.size());
    if (layers == 0) throw Error("the trace has no layers");
    if (through_layer == -1) return layers - 1;
    if (through_layer < 0 || through_layer >= layers)
        throw Error("layer " + std::to_string(through_layer) + " is out of range (0.." + std::to_string(layers - 1) +
                    ")");
    return through_layer;
}

// A~_l: half the mean of the heads' weights, half the identity, rows summing to 1.
Eigen::MatrixXd mixing(const Trace& t, int layer) {
    const auto& heads = t.layers[layer].heads;
    Eigen::MatrixXd a = Eigen::MatrixXd::Zero(t.tokens, t.tokens);
    for (int h = 0; h < static_cast<int>(heads.size()); ++h) {
        const Mat& w = head_trace(t, layer, h).attn;
        if (w.size() == 0) throw Error("this trace was run without attention weights");
        a += w.cast<double>();
    }
    a = 0.5 * a / static_cast<double>(heads.size());
    a.diagonal().array() += 0.5;
    return a.array().colwise() / a.rowwise().sum().array();
}

}  // namespace

Eigen::MatrixXd attention_rollout(const Trace& t, int through_layer) {
    const int last = last_layer(t, through_layer);
    Eigen::MatrixXd r = mixing(t, 0);
    for (int l = 1; l <= last; ++l) r = mixing(t, l) * r;
    return r;
}

Eigen::VectorXd rollout_row(const Trace& t, int query, int through_layer) {
    const int last = last_layer(t, through_layer);
    check_query_token(t, query);
    // e_q^T A~_last ... A~_0, multiplied from the left.
    Eigen::RowVectorXd row = Eigen::RowVectorXd::Unit(t.tokens, query);
    for (int l = last; l >= 0; --l) row = row * mixing(t, l);
    return row.transpose();
}

}  // namespace vit
