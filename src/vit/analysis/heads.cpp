#include "vit/analysis/heads.h"

#include <cmath>
#include <string>

#include "vit/analysis/attention_rows.h"
#include "vit/analysis/divergence.h"
#include "vit/base/error.h"

namespace vit {
namespace {

const Mat& weights_of(const Trace& t, int layer, int head) {
    const Mat& a = head_trace(t, layer, head).attn;
    if (a.size() == 0) throw Error("this trace was run without attention weights");
    return a;
}

int layer_count(const Trace& t) { return static_cast<int>(t.layers.size()); }
int head_count(const Trace& t) { return t.layers.empty() ? 0 : static_cast<int>(t.layers[0].heads.size()); }

// Distances between patch centres in pixels, patches x patches.
Eigen::MatrixXd patch_distances(int grid, int patch_px) {
    const int p = grid * grid;
    Eigen::MatrixXd d(p, p);
    for (int i = 0; i < p; ++i)
        for (int j = 0; j < p; ++j) {
            const double dr = i / grid - j / grid, dc = i % grid - j % grid;
            d(i, j) = patch_px * std::sqrt(dr * dr + dc * dc);
        }
    return d;
}

double distance_of(const Mat& a, const Trace& t, const Eigen::MatrixXd& dist) {
    const int p = t.grid * t.grid;
    double sum = 0;
    int rows = 0;
    for (int i = 0; i < p; ++i) {
        const auto patch_keys = a.row(t.prefix + i).segment(t.prefix, p).cast<double>();
        const double mass = patch_keys.sum();
        if (!(mass > 0)) continue;
        sum += patch_keys.dot(dist.row(i)) / mass;
        ++rows;
    }
    return rows ? sum / rows : 0.0;
}

}  // namespace

double mean_attention_distance(const Trace& t, int layer, int head, int patch_px) {
    return distance_of(weights_of(t, layer, head), t, patch_distances(t.grid, patch_px));
}

Eigen::MatrixXd mean_attention_distances(const Trace& t, int patch_px) {
    const Eigen::MatrixXd dist = patch_distances(t.grid, patch_px);
    Eigen::MatrixXd out(layer_count(t), head_count(t));
    for (int l = 0; l < out.rows(); ++l)
        for (int h = 0; h < out.cols(); ++h) out(l, h) = distance_of(weights_of(t, l, h), t, dist);
    return out;
}

Eigen::MatrixXd mean_spreads(const Trace& t) {
    Eigen::MatrixXd out(layer_count(t), head_count(t));
    const int p = t.grid * t.grid;
    for (int l = 0; l < out.rows(); ++l)
        for (int h = 0; h < out.cols(); ++h) {
            const Mat& a = weights_of(t, l, h);
            double sum = 0;
            for (int i = t.prefix; i < t.tokens; ++i) sum += effective_keys(a.row(i).data(), a.cols());
            out(l, h) = p ? sum / p : 0.0;
        }
    return out;
}

Eigen::MatrixXd head_divergences(const Trace& t, int layer) {
    const int heads = head_count(t), p = t.grid * t.grid;
    weights_of(t, layer, 0);  // the layer exists and holds weights
    Eigen::MatrixXd out = Eigen::MatrixXd::Zero(heads, heads);
    for (int a = 0; a < heads; ++a)
        for (int b = a + 1; b < heads; ++b) {
            const Mat &wa = weights_of(t, layer, a), &wb = weights_of(t, layer, b);
            double sum = 0;
            for (int i = t.prefix; i < t.tokens; ++i)
                sum += jensen_shannon(wa.row(i).transpose(), wb.row(i).transpose());
            out(a, b) = out(b, a) = p ? sum / p : 0.0;
        }
    return out;
}

}  // namespace vit
