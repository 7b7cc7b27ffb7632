// Everything the "Attention, step by step" tab prints for one query i and one
// key j of one head: the vectors, the score, its scaling, the softmax with its
// Z, the check against the weight the forward pass stored, and the output with
// the keys that dominate it. Computed here so the panel only lays it out and
// the numbers can be tested alone.
#pragma once
#include <vector>

#include "vit/analysis/attention_rows.h"
#include "vit/forward/forward.h"

namespace vit {

struct StepExplanation {
    int layer = 0, head = 0, query = 0, key = 0;
    int head_dim = 0;
    float sqrt_dk = 1;
    Vec q, k, v;               // q_i, k_j, v_j
    Vec qk_product;            // q_i[d] * k_j[d]; its sum is the raw score
    float qk_extent = 1;       // largest |entry| of q_i and k_j: one colour scale for both strips
    float product_extent = 1;  // largest |entry| of qk_product
    Vec raw, scaled, weights;  // the query's rows over all keys: s_i., s_i./sqrt(d_k), a_i.
    float score = 0;           // s_ij
    float scaled_score = 0;    // s_ij / sqrt(d_k)
    double exp_score = 0;      // exp(s_ij / sqrt(d_k)), in double
    double z = 0;              // sum over all keys j of exp(s_ij / sqrt(d_k))
    double recomputed_weight = 0;  // exp_score / z
    float model_weight = 0;    // a_ij as the forward pass stored it (float32)
    bool agrees = false;       // recomputed_weight matches model_weight (1e-6 + 1e-4 relative)
    RowSummary row;            // sum, largest and spread of a_i.
    Vec output;                // o_i = sum_j a_ij v_j (as stored, else recomputed)
    float value_extent = 1;    // largest |entry| over every v_j and o_i: one scale for those strips
    std::vector<Contribution> contributions;  // every key, largest a_ij * ||v_j|| first
};

// Throws vit::Error when layer, head, query or key is out of range, or the
// trace was run without Q, K, V and the weights.
StepExplanation explain_step(const Trace& t, int layer, int head, int query, int key);

// The key the query attends to most in (layer, head): what the panel explains
// when no key is pinned or hovered.
int strongest_key(const Trace& t, int layer, int head, int query);

}  // namespace vit
