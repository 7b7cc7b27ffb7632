#include "vit/analysis/step_explanation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "vit/base/error.h"

namespace vit {
namespace {

// The largest |entry|, the scale a strip of v is drawn on (1 for an all-zero v).
float extent(const Vec& v) {
    const float m = v.size() ? v.cwiseAbs().maxCoeff() : 0.f;
    return m > 0.f ? m : 1.f;
}

template <class... A>
std::string format(const char* fmt, A... args) {
    char text[640];
    std::snprintf(text, sizeof text, fmt, args...);
    return text;
}

}  // namespace

FewKeys few_keys(const Vec& row) {
    FewKeys k;
    k.keys = static_cast<int>(row.size());
    k.counted = std::min(kFewKeys, k.keys);
    if (k.keys == 0) return k;
    k.even_share = double(k.counted) / k.keys;
    std::vector<double> v(row.data(), row.data() + row.size());
    double total = 0;
    for (double x : v) total += x;
    std::partial_sort(v.begin(), v.begin() + k.counted, v.end(), std::greater<double>());
    double top = 0;
    for (int r = 0; r < k.counted; ++r) top += v[r];
    k.top_share = total > 0 ? top / total : 0;
    k.spread_keys = summarize_row(row).effective_keys;
    k.dominate = k.spread_keys > 0 && k.top_share >= kDominantShare && k.spread_keys <= kFewKeysSpread;
    return k;
}

const char* const kSoftmaxGeneral =
    "The softmax turns larger scores into exponentially larger weights: a scaled score larger by 1 gets e ≈ 2.7 "
    "times the weight.";
const char* const kScaleGeneral =
    "A score adds up dₖ products, so for q and k of unit-variance entries it grows like √dₖ; dividing by √dₖ takes "
    "that growth out (see the What-ifs without it).";

std::string weights_sentence(const StepExplanation& e) {
    const FewKeys& k = e.weight_keys;
    if (k.dominate)
        return format(
            "In head %d's row a few keys dominate: its %d largest weights hold %.0f %% of all the row's "
            "weight (CLS included), where an even spread would give them %.1f %%, and the weight "
            "effectively spreads over %.1f of the %d keys.",
            e.head, k.counted, 100 * k.top_share, 100 * k.even_share, k.spread_keys, k.keys);
    if (k.top_share >= kDominantShare)
        return format(
            "In head %d's row the %d largest weights hold %.0f %% of all the row's weight (CLS "
            "included; an even spread would give them %.1f %%), but the rest is shared thinly: the "
            "weight effectively spreads over %.1f of the %d keys, more than a few.",
            e.head, k.counted, 100 * k.top_share, 100 * k.even_share, k.spread_keys, k.keys);
    return format(
        "In head %d's row the weight is not held by a few keys: its %d largest weights hold %.0f %% of all the row's "
        "weight (CLS included; an even spread would give them %.1f %%), and the weight effectively "
        "spreads over %.1f of the %d keys.",
        e.head, k.counted, 100 * k.top_share, 100 * k.even_share, k.spread_keys, k.keys);
}

std::string contributions_sentence(const StepExplanation& e) {
    const FewKeys& k = e.contribution_keys;
    if (k.dominate)
        return format(
            "A few keys dominate head %d's output here: the %d contributing most hold %.0f %% of the sum "
            "of aᵢⱼ·‖vⱼ‖ over all %d keys (CLS included), and the contributions effectively spread over "
            "%.1f keys.",
            e.head, k.counted, 100 * k.top_share, k.keys, k.spread_keys);
    return format(
        "Many keys add to head %d's output here: the %d contributing most hold %.0f %% of the sum of "
        "aᵢⱼ·‖vⱼ‖ over all %d keys (CLS included; an even spread would give them %.1f %%), and the "
        "contributions effectively spread over %.1f keys.",
        e.head, k.counted, 100 * k.top_share, k.keys, 100 * k.even_share, k.spread_keys);
}

std::string unscaled_sentence(const StepExplanation& e) {
    return "For this query in head " + std::to_string(e.head) + ", without the division " +
           unscaled_top_weight_clause(e.unscaled) + ".";
}

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

    e.output = h.out.rows() == t.tokens ? Vec(h.out.row(query).transpose())
                                        : weighted_sum_of_values(t, layer, head, e.weights);
    e.value_extent = extent(e.output);
    for (int j = 0; j < t.tokens; ++j) e.value_extent = std::max(e.value_extent, extent(h.v.row(j).transpose()));
    e.contributions = top_contributions(t, layer, head, e.weights, t.tokens);
    e.weight_keys = few_keys(e.weights);
    Vec amounts(static_cast<Eigen::Index>(e.contributions.size()));
    for (size_t r = 0; r < e.contributions.size(); ++r)
        amounts[static_cast<Eigen::Index>(r)] = e.contributions[r].amount;
    e.contribution_keys = few_keys(amounts);
    e.unscaled = unscaled_top_weight(t, layer, head, query);
    e.unscaled_saturates = claim_holds(ClaimKind::UnscaledTopWeight, e.unscaled, kSaturatedWeight);
    return e;
}

int strongest_key(const Trace& t, int layer, int head, int query) {
    Eigen::Index best = 0;
    attention_row(t, layer, head, query).maxCoeff(&best);
    return static_cast<int>(best);
}

}  // namespace vit
