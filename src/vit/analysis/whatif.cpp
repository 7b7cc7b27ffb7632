#include "vit/analysis/whatif.h"

#include <cmath>
#include <string>

#include "vit/analysis/attention_rows.h"
#include "vit/base/error.h"

namespace vit {

Vec whatif_row(const Trace& t, int layer, int head, int query, WhatIf kind, float temperature) {
    const float sqrt_dk = std::sqrt(static_cast<float>(t.head_dim));
    switch (kind) {
        case WhatIf::NoScaling: return softmax(raw_scores(t, layer, head, query));
        case WhatIf::NoSoftmax: return raw_scores(t, layer, head, query);
        case WhatIf::Temperature:
            if (!(temperature > 0.f)) throw Error("temperature must be positive");
            return softmax(scaled_scores(t, layer, head, query) / temperature);
        case WhatIf::ValueSimilarity: {
            raw_scores(t, layer, head, query);  // its range checks on layer, head and query
            const HeadTrace& h = head_trace(t, layer, head);
            if (h.v.rows() != t.tokens) throw Error("this trace was run without V");
            const Vec s = h.v * h.q.row(query).transpose();
            return softmax(s / sqrt_dk);
        }
    }
    throw Error("unknown what-if");
}

WhatIfOutcome whatif_outcome(const Trace& t, int layer, int head, int query, WhatIf kind, float temperature) {
    WhatIfOutcome o;
    o.weights = whatif_row(t, layer, head, query, kind, temperature);
    o.distribution = whatif_is_distribution(kind);
    o.summary = summarize_row(o.weights);
    const Vec real = weighted_sum_of_values(t, layer, head, attention_row(t, layer, head, query));
    const double n = real.norm();
    o.output_change = n > 0 ? (weighted_sum_of_values(t, layer, head, o.weights) - real).norm() / n : 0.0;
    return o;
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
        case WhatIf::NoScaling: return "softmax(q·k) without dividing by √dₖ: larger scores make the softmax peakier.";
        case WhatIf::NoSoftmax:
            return "The raw scores q·k used as weights: nothing keeps them positive or makes them sum to 1.";
        case WhatIf::Temperature:
            return "softmax(q·k / (√dₖ · T)): T < 1 sharpens, T > 1 flattens; T = 1 is the real model.";
        case WhatIf::ValueSimilarity:
            return "softmax(q·v / √dₖ): compares the query with what patches hand over instead of what they offer.";
    }
    return "";
}

bool whatif_is_distribution(WhatIf kind) { return kind != WhatIf::NoSoftmax; }

}  // namespace vit
