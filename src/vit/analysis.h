// Numbers derived from a Trace for one query row: what the math panel and the
// command line show. All exact recomputations from the stored Q, K, V.
#pragma once
#include <vector>

#include "forward.h"

namespace vit {

// One head of the trace; throws vit::Error naming the layer or head out of range.
const HeadTrace& checked_head(const Trace& t, int layer, int head);
// Throws vit::Error when query is not a token of the trace.
void check_query_token(const Trace& t, int query);

// s_ij = q_i . k_j for every key j (raw scores).
Vec raw_scores(const Trace& t, int layer, int head, int query);
// s_ij / sqrt(d_k).
Vec scaled_scores(const Trace& t, int layer, int head, int query);
// Softmax of any score row (numerically stable).
Vec softmax(const Vec& scores);
// Attention weights of one query row, per head or averaged over the given heads.
Vec attention_row(const Trace& t, int layer, int head, int query);
Vec mean_attention_row(const Trace& t, int layer, const std::vector<int>& heads, int query);

}  // namespace vit
