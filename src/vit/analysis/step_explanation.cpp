#include "vit/analysis/step_explanation.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "vit/base/error.h"

namespace vit {
namespace {

// The largest |entry|, the scale a strip of v is drawn on (1 for an all-zero v).
float extent(const Vec& v) {
    const float m = v.size() ? v.cwiseAbs().maxCoeff() : 0.f;
    return m > 0.f ? m : 1.f;
}

}  // namespace

StepExplanation explain_step(const Trace& t, int layer, int head, int query, int key) {
    StepExplanation e;
    e.raw = raw_scores(t, layer, head, query);  // checks layer, head and query
    if (key < 0 || key >= t.tokens)
        throw Error("key token " + std::to_string(key) + " is out of range (0.." + std::to_string(t.tokens - 1) + ")");
    const HeadTrace& h = head_trace(t, layer, head);
    e.layer = layer, e.head = head, e.query = query, e.key = key;
    e.head_dim = t.head_dim;
    e.sqrt_dk = std::sqrt(static_cast<float>(t.head_dim));
    e.q = h.q.row(query).transpose();
    e.k = h.k.row(key).transpose();
    e.v = h.v.row(key).transpose();
    e.qk_product = e.q.cwiseProduct(e.k);
    e.qk_extent = std::max(extent(e.q), extent(e.k));
    e.product_extent = extent(e.qk_product);

    e.scaled = scaled_scores(t, layer, head, query);
    e.weights = attention_row(t, layer, head, query);
    e.score = e.raw[key];
    e.scaled_score = e.scaled[key];
    // In double: exp of a scaled score fits easily, and Z sums every key.
    for (int j = 0; j < t.tokens; ++j) e.z += std::exp(static_cast<double>(e.scaled[j]));
    e.exp_score = std::exp(static_cast<double>(e.scaled_score));
    e.recomputed_weight = e.exp_score / e.z;
    e.model_weight = e.weights[key];
    // The forward pass stores float32 weights from a float32 softmax.
    e.agrees = std::abs(e.recomputed_weight - e.model_weight) <= 1e-6 + 1e-4 * e.model_weight;
    e.row = summarize_row(e.weights);

    e.output = h.out.rows() == t.tokens ? Vec(h.out.row(query).transpose()) : weighted_sum_of_values(t, layer, head, e.weights);
    e.value_extent = extent(e.output);
    for (int j = 0; j < t.tokens; ++j) e.value_extent = std::max(e.value_extent, extent(h.v.row(j).transpose()));
    e.contributions = top_contributions(t, layer, head, e.weights, t.tokens);
    return e;
}

int strongest_key(const Trace& t, int layer, int head, int query) {
    Eigen::Index best = 0;
    attention_row(t, layer, head, query).maxCoeff(&best);
    return static_cast<int>(best);
}

}  // namespace vit
