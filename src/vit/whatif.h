// Counterfactual attention rows for one query: what the weights would be if
// one step of the real computation were changed. None of these is what the
// model computes; the window labels every one of them as a what-if.
// Also the helpers both the real and the what-if rows need (o_i = sum_j w_j v_j,
// which keys dominate it, a row's summary).
#pragma once
#include <vector>

#include "forward.h"

namespace vit {

enum class WhatIf {
    NoScaling,        // softmax(q.k): scores not divided by sqrt(d_k)
    NoSoftmax,        // q.k used directly as weights: signed, not summing to one
    Temperature,      // softmax(q.k / (sqrt(d_k) * T)); T = 1 is the real row
    ValueSimilarity,  // softmax(q.v / sqrt(d_k)): values asked instead of keys
};
constexpr WhatIf kAllWhatIfs[] = {WhatIf::NoScaling, WhatIf::NoSoftmax, WhatIf::Temperature, WhatIf::ValueSimilarity};

// The row of weights over all keys for query `query` of (layer, head).
// temperature is used by WhatIf::Temperature only and must be > 0.
// Throws vit::Error on an index out of range or a trace without Q/K/V.
Vec whatif_row(const Trace& t, int layer, int head, int query, WhatIf kind, float temperature = 1.f);

// Short name and one plain-language sentence for each what-if.
const char* whatif_name(WhatIf kind);
const char* whatif_explanation(WhatIf kind);
// Whether the what-if's weights are a probability distribution (>= 0, sum 1).
bool whatif_is_distribution(WhatIf kind);

// o = sum_j w_j v_j (the head's real output when w is its real weight row).
Vec weighted_sum_of_values(const Trace& t, int layer, int head, const Vec& weights);

// How much key j contributes to o: |w_j| * ||v_j||.
struct Contribution {
    int token = 0;
    float weight = 0;       // w_j
    float value_norm = 0;   // ||v_j||
    float amount = 0;       // |w_j| * ||v_j||
};
// The `count` largest contributions, the largest first.
std::vector<Contribution> top_contributions(const Trace& t, int layer, int head, const Vec& weights, int count);

struct RowSummary {
    double sum = 0, min = 0, max = 0;
    int argmax = 0;
    // exp(entropy) for a distribution: how many keys it effectively spreads
    // over (1 = all on one key, N = uniform); 0 when the row has negative entries.
    double effective_keys = 0;
};
RowSummary summarize_row(const Vec& w);

}  // namespace vit
