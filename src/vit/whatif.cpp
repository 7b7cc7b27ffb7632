#include "whatif.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "analysis.h"
#include "error.h"

namespace vit {
namespace {

// analysis.h's functions check layer, head and query; this checks the values
// those functions do not touch.
const HeadTrace& head_of(const Trace& t, int layer, int head) {
    if (layer < 0 || layer >= static_cast<int>(t.layers.size()) || head < 0 ||
        head >= static_cast<int>(t.layers[layer].heads.size()))
        throw Error("layer " + std::to_string(layer) + ", head " + std::to_string(head) + " is not in this trace");
    const HeadTrace& h = t.layers[layer].heads[head];
    if (h.v.rows() != t.tokens) throw Error("this trace was run without V");
    return h;
}

}  // namespace

Vec whatif_row(const Trace& t, int layer, int head, int query, WhatIf kind, float temperature) {
    const float sqrt_dk = std::sqrt(static_cast<float>(t.head_dim));
    switch (kind) {
        case WhatIf::NoScaling:
            return softmax(raw_scores(t, layer, head, query));
        case WhatIf::NoSoftmax:
            return raw_scores(t, layer, head, query);
        case WhatIf::Temperature:
            if (!(temperature > 0.f)) throw Error("temperature must be positive");
            return softmax(scaled_scores(t, layer, head, query) / temperature);
        case WhatIf::ValueSimilarity: {
            const HeadTrace& h = head_of(t, layer, head);
            raw_scores(t, layer, head, query);  // for its range checks on query
            const Vec s = h.v * h.q.row(query).transpose();
            return softmax(s / sqrt_dk);
        }
    }
    throw Error("unknown what-if");
}

const char* whatif_name(WhatIf kind) {
    switch (kind) {
        case WhatIf::NoScaling: return "No scaling";
        case WhatIf::NoSoftmax: return "No softmax";
        case WhatIf::Temperature: return "Temperature";
        case WhatIf::ValueSimilarity: return "Similarity from values";
    }
    return "?";
}

const char* whatif_explanation(WhatIf kind) {
    switch (kind) {
        case WhatIf::NoScaling:
            return "softmax(q·k) without dividing by √dₖ: larger scores make the softmax peakier.";
        case WhatIf::NoSoftmax:
            return "The raw scores q·k used as weights: some are negative and they do not sum to 1.";
        case WhatIf::Temperature:
            return "softmax(q·k / (√dₖ · T)): T < 1 sharpens, T > 1 flattens; T = 1 is the real model.";
        case WhatIf::ValueSimilarity:
            return "softmax(q·v / √dₖ): compares the query with what patches hand over instead of what they offer.";
    }
    return "";
}

bool whatif_is_distribution(WhatIf kind) { return kind != WhatIf::NoSoftmax; }

Vec weighted_sum_of_values(const Trace& t, int layer, int head, const Vec& weights) {
    const HeadTrace& h = head_of(t, layer, head);
    if (weights.size() != t.tokens)
        throw Error("weight row has " + std::to_string(weights.size()) + " entries, the trace has " +
                    std::to_string(t.tokens) + " tokens");
    return h.v.transpose() * weights;
}

std::vector<Contribution> top_contributions(const Trace& t, int layer, int head, const Vec& weights, int count) {
    const HeadTrace& h = head_of(t, layer, head);
    if (weights.size() != t.tokens) throw Error("weight row does not match the trace's token count");
    std::vector<Contribution> all(t.tokens);
    for (int j = 0; j < t.tokens; ++j) {
        const float norm = h.v.row(j).norm();
        all[j] = {j, weights[j], norm, std::abs(weights[j]) * norm};
    }
    const int n = std::clamp(count, 0, t.tokens);
    std::partial_sort(all.begin(), all.begin() + n, all.end(),
                      [](const Contribution& a, const Contribution& b) { return a.amount > b.amount; });
    all.resize(n);
    return all;
}

RowSummary summarize_row(const Vec& w) {
    RowSummary s;
    if (w.size() == 0) return s;
    s.sum = std::accumulate(w.data(), w.data() + w.size(), 0.0);
    Eigen::Index arg = 0;
    s.max = w.maxCoeff(&arg);
    s.argmax = static_cast<int>(arg);
    s.min = w.minCoeff();
    if (s.min >= 0 && s.sum > 0) {
        double h = 0;
        for (Eigen::Index j = 0; j < w.size(); ++j) {
            const double p = w[j] / s.sum;
            if (p > 0) h -= p * std::log(p);
        }
        s.effective_keys = std::exp(h);
    }
    return s;
}

}  // namespace vit
