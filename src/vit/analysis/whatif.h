// Counterfactual attention rows for one query: what the weights would be if
// one step of the real computation were changed. None of these is what the
// model computes; the window labels every one of them as a what-if.
#pragma once
#include <vector>

#include "vit/analysis/attention_rows.h"
#include "vit/forward/forward.h"

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

// What the What-ifs tab shows of one what-if beside the real row.
struct WhatIfOutcome {
    Vec weights;               // the what-if's row over all keys
    bool distribution = true;  // whatif_is_distribution(kind)
    RowSummary summary;        // its sum, extremes and spread
    double output_change = 0;  // ||o' - o|| / ||o||: o' = sum_j w_j v_j under the what-if, o the model's
};
WhatIfOutcome whatif_outcome(const Trace& t, int layer, int head, int query, WhatIf kind, float temperature = 1.f);

// Short name and one plain-language sentence for each what-if.
const char* whatif_name(WhatIf kind);
const char* whatif_explanation(WhatIf kind);
// Whether the what-if's weights are a probability distribution (>= 0, sum 1).
bool whatif_is_distribution(WhatIf kind);

}  // namespace vit
