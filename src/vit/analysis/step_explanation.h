// Everything the "Attention, step by step" tab prints for one query i and one
// key j of one head: the vectors, the score, its scaling, the softmax with its
// Z, the check against the weight the forward pass stored, and the output with
// the keys that contribute most to it. Computed here so the panel only lays it out and
// the numbers can be tested alone.
#pragma once
#include <string>
#include <vector>

#include "vit/analysis/attention_rows.h"
#include "vit/analysis/neighbourhood_claims.h"
#include "vit/forward/forward.h"

namespace vit {

// Whether a few keys dominate a row of non-negative numbers (attention
// weights, or contributions a_ij ||v_j||): the claim the panel's "a few keys
// dominate" rests on. value = the share of the row's total held by its
// kFewKeys largest entries; baseline = kFewKeys / the row's length, what an
// even spread gives them. It holds when value >= kDominantShare and the row
// effectively spreads over at most kFewKeysSpread = 2 kFewKeys keys
// (1 / sum a^2, the panel's "spread ≈ n keys"): 0.3, 0.15 and 0.05 on three
// keys with the other half thinly over 190 spreads over about 8.6 keys, and
// is not "a few keys".
constexpr int kFewKeys = 3;
constexpr double kDominantShare = 0.5;
constexpr double kFewKeysSpread = 2 * kFewKeys;
struct FewKeys {
    int keys = 0;           // the row's length
    int counted = 0;        // min(kFewKeys, keys)
    double top_share = 0;   // the counted largest entries' share of the row's total
    double even_share = 0;  // counted / keys
    double spread_keys =
        0;  // effective_keys of the row (1 / sum a^2 once normalised); 0 for a row with negative entries
    bool dominate = false;
};
FewKeys few_keys(const Vec& row);

struct StepExplanation {
    int layer = 0, head = 0, query = 0, key = 0;
    int head_dim = 0;
    float sqrt_dk = 1;
    Vec q, k, v;                              // q_i, k_j, v_j
    Vec qk_product;                           // q_i[d] * k_j[d]; its sum is the raw score
    float qk_extent = 1;                      // largest |entry| of q_i and k_j: one colour scale for both strips
    float product_extent = 1;                 // largest |entry| of qk_product
    Vec raw, scaled, weights;                 // the query's rows over all keys: s_i., s_i./sqrt(d_k), a_i.
    float score = 0;                          // s_ij
    float scaled_score = 0;                   // s_ij / sqrt(d_k)
    double exp_score = 0;                     // exp(s_ij / sqrt(d_k)), in double
    double z = 0;                             // sum over all keys j of exp(s_ij / sqrt(d_k))
    double recomputed_weight = 0;             // exp_score / z
    float model_weight = 0;                   // a_ij as the forward pass stored it (float32)
    bool agrees = false;                      // recomputed_weight matches model_weight (1e-6 + 1e-4 relative)
    RowSummary row;                           // sum, largest and spread of a_i.
    Vec output;                               // o_i = sum_j a_ij v_j (as stored, else recomputed)
    float value_extent = 1;                   // largest |entry| over every v_j and o_i: one scale for those strips
    std::vector<Contribution> contributions;  // every key, largest a_ij * ||v_j|| first
    FewKeys weight_keys;                      // few_keys of a_i.
    FewKeys contribution_keys;                // few_keys of a_ij * ||v_j|| over every key
    ClaimValue unscaled;                      // unscaled_top_weight of the row (neighbourhood_claims.h)
    bool unscaled_saturates = false;          // claim_holds(UnscaledTopWeight, unscaled, kSaturatedWeight)
};

// Throws vit::Error when layer, head, query or key is out of range, or the
// trace was run without Q, K, V and the weights.
StepExplanation explain_step(const Trace& t, int layer, int head, int query, int key);

// The sentences the math panel prints about the row on show. Each is a claim
// checked on the explanation's numbers, with the numbers it rests on, or an
// honest alternative when it fails; the general ones are true of any row.
//
// Always true: a scaled score larger by 1 gets e times the weight.
extern const char* const kSoftmaxGeneral;
// Always true: why the scores are divided by sqrt(d_k).
extern const char* const kScaleGeneral;
// Softmax step: "a few keys dominate" only when weight_keys.dominate holds,
// else how far the weight spreads; both name the head, the base (all the
// row's weight, CLS included) and the spread in keys.
std::string weights_sentence(const StepExplanation& e);
// Output step: the same for the contributions a_ij ||v_j|| of the table.
std::string contributions_sentence(const StepExplanation& e);
// Scale step: the row's largest weight without the division against with
// it; "nearly all the weight on one key" only when unscaled_saturates.
std::string unscaled_sentence(const StepExplanation& e);

// The key the query attends to most in (layer, head): what the panel explains
// when no key is pinned or hovered.
int strongest_key(const Trace& t, int layer, int head, int query);

}  // namespace vit
