#include "vit/analysis/token_norms.h"

#include <algorithm>
#include <string>

#include "vit/base/error.h"

namespace vit {
namespace {

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    const size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + mid, v.end());
    if (v.size() % 2) return v[mid];
    return 0.5 * (v[mid] + *std::max_element(v.begin(), v.begin() + mid));
}

// Every token's norm, the patches' median and the high-norm patches among them.
void measure(const Trace& t, const Mat& x, LayerNorms& n) {
    for (int j = 0; j < t.tokens; ++j) n.norm.push_back(x.row(j).cast<double>().norm());
    n.median_patch_norm = median({n.norm.begin() + t.prefix, n.norm.end()});
    for (int j = t.prefix; j < t.tokens; ++j) {
        n.top_patch_norm = std::max(n.top_patch_norm, n.norm[j]);
        if (n.norm[j] >= kHighNormRatio * n.median_patch_norm && n.median_patch_norm > 0) n.high.push_back(j);
    }
    n.top_over_median = n.median_patch_norm > 0 ? n.top_patch_norm / n.median_patch_norm : 0;
}

}  // namespace

std::vector<LayerNorms> token_norms(const Trace& t) {
    const int layers = static_cast<int>(t.layers.size());
    if (layers == 0 || t.last_block_out.rows() != t.tokens)
        throw Error("token norms need the trace's token states (run with keep_states)");
    std::vector<LayerNorms> out(layers);
    for (int l = 0; l < layers; ++l) {
        const Mat& x = l + 1 < layers ? t.layers[l + 1].x_in : t.last_block_out;
        const auto& heads = t.layers[l].heads;
        if (x.rows() != t.tokens || heads.empty() || heads[0].attn.rows() != t.tokens)
            throw Error("token norms need every layer's token states and attention weights");
        LayerNorms& n = out[l];
        measure(t, x, n);
        const int patches = t.tokens - t.prefix;
        for (const HeadTrace& h : heads)
            for (int j : n.high) {
                n.cls_weight_on_high += h.attn(0, j);
                n.patch_weight_on_high += h.attn.block(t.prefix, j, patches, 1).cast<double>().sum();
            }
        n.cls_weight_on_high /= heads.size();
        n.patch_weight_on_high /= double(heads.size()) * patches;
    }
    return out;
}

std::vector<int> layers_with_high_norm(const std::vector<LayerNorms>& norms) {
    std::vector<int> out;
    for (size_t l = 0; l < norms.size(); ++l)
        if (claim_holds(ClaimKind::HighNormTokens, high_norm_claim(norms[l]), kHighNormRatio))
            out.push_back(static_cast<int>(l));
    return out;
}

ClaimValue high_norm_claim(const LayerNorms& layer) { return {layer.top_patch_norm, layer.median_patch_norm}; }

std::vector<int> high_norm_entering(const Trace& t, int layer) {
    if (layer < 0 || layer >= static_cast<int>(t.layers.size()))
        throw Error("layer " + std::to_string(layer) + " is not among the model's " + std::to_string(t.layers.size()));
    if (t.layers[layer].x_in.rows() != t.tokens)
        throw Error("high-norm tokens need the trace's token states (run with keep_states)");
    LayerNorms n;
    measure(t, t.layers[layer].x_in, n);
    return n.high;
}

int first_high_norm_layer(const std::vector<LayerNorms>& layers) {
    for (size_t l = 0; l < layers.size(); ++l)
        if (!layers[l].high.empty()) return static_cast<int>(l);
    return -1;
}

}  // namespace vit
