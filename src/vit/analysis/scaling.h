// Why the scores are divided by sqrt(d_k): how widely a head's scores spread
// with and without the scaling, how often the softmax saturates (one weight
// takes almost everything), and how much gradient can still flow through it
// (the softmax Jacobian, which vanishes as the softmax saturates).
// "raw" is the what-if without the scaling (softmax(q.k)); "scaled" is the
// model (softmax(q.k / sqrt(d_k)), the trace's weights).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "vit/analysis/neighbourhood_claims.h"
#include "vit/forward/forward.h"

namespace vit {

// A head's N^2 scores q_i.k_j (raw) and q_i.k_j / sqrt(d_k) (scaled), binned
// on one set of edges so the two histograms can be drawn over each other.
struct ScoreHistogram {
    std::vector<double> edges;  // bins + 1, ascending, from the smaller minimum to the larger maximum
    std::vector<long long> raw_counts,
        scaled_counts;  // bins each; each sums to N^2 (the last bin includes its right edge)
    double raw_mean = 0, scaled_mean = 0;
    double raw_std = 0, scaled_std = 0;  // population std over the N^2 scores
};
ScoreHistogram score_histogram(const Trace& t, int layer, int head, int bins = 64);

// How peaked one softmax row a is.
struct SoftmaxSharpness {
    double max_weight = 0;     // the largest a_j
    double spread_keys = 0;    // effective_keys (1 / sum a^2): 1 = all on one key, N = uniform
    double jacobian_norm = 0;  // Frobenius norm of d softmax / d scores = diag(a) - a a^T
};
SoftmaxSharpness softmax_sharpness(const Eigen::VectorXd& weights);
// ||diag(a) - a a^T||_F = sqrt(sum a^2 - 2 sum a^3 + (sum a^2)^2): 0 for a
// one-hot row, sqrt(n - 1) / n for a uniform row of n.
double softmax_jacobian_norm(const Eigen::VectorXd& weights);

// One query's softmax with the scaling (the model) and without (what-if),
// and the unscaled_top_weight claim of its row (neighbourhood_claims.h):
// value = the largest weight without the division, baseline = with it,
// saturates = the claim holds (value >= kSaturatedWeight).
struct QueryScaling {
    SoftmaxSharpness scaled, raw;
    int layer = 0, head = 0;
    ClaimValue unscaled;
    bool saturates = false;
};
QueryScaling query_scaling(const Trace& t, int layer, int head, int query);

// The page's sentence about that query, by the unscaled_top_weight rule:
// "one key would take nearly all the weight" only when it saturates, else
// that it would not; "less gradient" only when the Jacobian's norm is smaller
// without the division. Names the head and the base of the weights.
std::string query_scaling_sentence(const QueryScaling& q);

// Per layer x head, over every query row of the photo.
struct ScalingTable {
    Eigen::MatrixXd raw_std, scaled_std;              // population std of the N^2 scores
    Eigen::MatrixXd saturated_raw, saturated_scaled;  // share of query rows whose largest weight > threshold
};
constexpr double kSaturationThreshold = 0.99;
ScalingTable scaling_table(const Trace& t, double threshold = kSaturationThreshold);

// Whether a spread (std) of scaled scores is "near unit spread": within a
// factor of kUnitSpreadFactor of 1, the spread unit-variance q and k give.
// A trained head's q and k are not unit-variance, so its scaled spread is
// what training made it; the page says "near unit spread" only when this holds.
constexpr double kUnitSpreadFactor = 2.0;
bool near_unit_spread(double scaled_std);

// Over every head of a table: the smallest and largest scaled spread, how
// many heads are near unit spread, and the share of rows saturated without
// and with the scaling (the mean over the heads: every head has N rows).
struct ScalingSummary {
    double min_scaled_std = 0, max_scaled_std = 0;
    int near_unit = 0, heads = 0;
    double saturated_raw = 0, saturated_scaled = 0;
};
ScalingSummary scaling_summary(const ScalingTable& table);

// The control that needs no model: q and k with independent standard normal
// entries (so unit variance), d_k of them each; the std of q.k over `samples`
// pairs is sqrt(d_k) in theory. Normals come from mt19937 (a fully specified
// stream) by Box-Muller, so the numbers are the same on every platform.
struct DotProductSpread {
    int d_k = 0;
    int samples = 0;
    double measured_std = 0;  // sample std (n - 1) of the samples' q.k
    double theory_std = 0;    // sqrt(d_k)
};
constexpr uint32_t kDotProductSeed = 2017;
constexpr int kDotProductSamples = 10000;
std::vector<DotProductSpread> dot_product_control(const std::vector<int>& dims = {16, 64, 256, 1024},
                                                  int samples = kDotProductSamples, uint32_t seed = kDotProductSeed);

}  // namespace vit
