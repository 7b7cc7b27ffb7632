// Numbers derived from a Trace for one query row: what the math panel and the
// command line show. All exact recomputations from the stored Q, K, V.
#pragma once
#include <vector>

#include "vit/forward/forward.h"

namespace vit {

// One head of the trace; throws vit::Error naming the layer or head out of range.
const HeadTrace& head_trace(const Trace& t, int layer, int head);
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

// o = sum_j w_j v_j (the head's real output when w is its real weight row).
Vec weighted_sum_of_values(const Trace& t, int layer, int head, const Vec& weights);

// How much key j contributes to o: |w_j| * ||v_j||.
struct Contribution {
    int token = 0;
    float weight = 0;      // w_j
    float value_norm = 0;  // ||v_j||
    float amount = 0;      // |w_j| * ||v_j||
    float share = 0;       // amount over the sum of all keys' amounts
};
// The `count` largest contributions, the largest first.
std::vector<Contribution> top_contributions(const Trace& t, int layer, int head, const Vec& weights, int count);

struct RowSummary {
    double sum = 0, min = 0, max = 0;
    int argmax = 0;
    // effective_keys(w): 0 when the row has negative entries.
    double effective_keys = 0;
};
RowSummary summarize_row(const Vec& w);

// How many keys a row of non-negative weights effectively spreads over:
// (sum w)^2 / sum w^2, i.e. 1 / sum a^2 for a row normalised to sum 1
// (1 = all on one key, N = even over N). A row with a negative entry, or
// summing to zero, has no spread: 0.
double effective_keys(const float* w, Eigen::Index n);
double effective_keys(const Eigen::VectorXd& w);

}  // namespace vit
