// Why sqrt(d_k): score histograms and their spread, saturation shares, the
// softmax Jacobian norm, and the random dot-product control, on traces whose
// answers can be worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "support/hand_made_trace.h"
#include "vit/analysis/scaling.h"
#include "vit/base/error.h"

namespace vit {
namespace {

// The Jacobian written out as a matrix, d a_i / d s_j = a_i (delta_ij - a_j).
double explicit_jacobian_norm(const Eigen::VectorXd& a) {
    const Eigen::MatrixXd j = Eigen::MatrixXd(a.asDiagonal()) - a * a.transpose();
    return j.norm();
}

Eigen::VectorXd softmax_of(const Eigen::VectorXd& s) {
    Eigen::VectorXd e = (s.array() - s.maxCoeff()).exp();
    return e / e.sum();
}

TEST(SoftmaxJacobian, OneHotRowHasNoGradient) {
    for (int n : {1, 2, 197}) {
        Eigen::VectorXd a = Eigen::VectorXd::Zero(n);
        a[n / 2] = 1;
        EXPECT_EQ(softmax_jacobian_norm(a), 0.0) << n;
    }
}

TEST(SoftmaxJacobian, UniformRowIsSqrtOfNMinusOneOverN) {
    // J = I/n - 11^T/n^2: diagonal (n - 1)/n^2, off-diagonal -1/n^2, so
    // ||J||^2 = n (n-1)^2/n^4 + n(n-1)/n^4 = (n-1)/n^2.
    for (int n : {2, 3, 10, 197}) {
        const Eigen::VectorXd a = Eigen::VectorXd::Constant(n, 1.0 / n);
        EXPECT_NEAR(softmax_jacobian_norm(a), std::sqrt(n - 1.0) / n, 1e-15) << n;
    }
}

TEST(SoftmaxJacobian, MatchesTheExplicitMatrix) {
    std::mt19937 rng(7);
    std::normal_distribution<double> normal(0, 3);
    for (int trial = 0; trial < 20; ++trial) {
        Eigen::VectorXd s(1 + trial * 7);
        for (auto& x : s) x = normal(rng);
        const Eigen::VectorXd a = softmax_of(s);
        EXPECT_NEAR(softmax_jacobian_norm(a), explicit_jacobian_norm(a), 1e-12);
    }
}

TEST(SoftmaxSharpness, SpreadCountsKeys) {
    const SoftmaxSharpness uniform = softmax_sharpness(Eigen::VectorXd::Constant(50, 0.02));
    EXPECT_NEAR(uniform.spread_keys, 50, 1e-9);
    EXPECT_NEAR(uniform.max_weight, 0.02, 1e-15);
    Eigen::VectorXd half(4);
    half << 0.5, 0.5, 0, 0;  // two keys: exp(ln 2) = 2
    EXPECT_NEAR(softmax_sharpness(half).spread_keys, 2, 1e-12);
    EXPECT_NEAR(softmax_sharpness(half).jacobian_norm, std::sqrt(1.0) / 2, 1e-12);  // uniform over 2 keys
}

// One layer, one head, N = 10 (CLS + 3 x 3), d_k = 4: every query is
// (1, 0, 0, 0), key 0 is (10, 0, 0, 0), the others are zero. Every raw row is
// [10, 0, ..., 0]; scaled [5, 0, ..., 0].
Trace one_strong_key() {
    Trace t = testing::hand_made_trace(3, 1, 1, 1, [](int, int) { return Mat(); });
    HeadTrace& h = t.layers[0].heads[0];
    h.q = Mat::Zero(10, 4);
    h.k = Mat::Zero(10, 4);
    h.q.col(0).setOnes();
    h.k(0, 0) = 10;
    Eigen::VectorXd scaled = Eigen::VectorXd::Zero(10);
    scaled[0] = 5;
    h.attn = softmax_of(scaled).transpose().replicate(10, 1).cast<float>();
    return t;
}

TEST(ScalingTable, SpreadAndSaturationOfOneStrongKey) {
    const ScalingTable s = scaling_table(one_strong_key());
    // 100 scores, 10 of them 10: mean 1, mean square 10, std sqrt(10 - 1) = 3.
    EXPECT_NEAR(s.raw_std(0, 0), 3.0, 1e-12);
    EXPECT_NEAR(s.scaled_std(0, 0), 1.5, 1e-12);
    // Largest weight: raw 1 / (1 + 9 e^-10) = 0.9996 > 0.99; scaled 1 / (1 + 9 e^-5) = 0.943.
    EXPECT_EQ(s.saturated_raw(0, 0), 1.0);
    EXPECT_EQ(s.saturated_scaled(0, 0), 0.0);
    // With the threshold below 0.943 both saturate.
    EXPECT_EQ(scaling_table(one_strong_key(), 0.94).saturated_scaled(0, 0), 1.0);
}

TEST(ScalingTable, QueryNumbersOfOneStrongKey) {
    const QueryScaling q = query_scaling(one_strong_key(), 0, 0, 4);
    EXPECT_NEAR(q.raw.max_weight, 1 / (1 + 9 * std::exp(-10.0)), 1e-12);
    EXPECT_NEAR(q.scaled.max_weight, 1 / (1 + 9 * std::exp(-5.0)), 1e-7);  // the trace's float weights
    EXPECT_LT(q.raw.jacobian_norm, q.scaled.jacobian_norm);                // saturating shrinks the gradient
    EXPECT_LT(q.raw.spread_keys, q.scaled.spread_keys);
}

Trace random_qk_trace(int grid, int head_dim, uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> normal(0, 1.5f);
    Trace t = testing::hand_made_trace(
        grid, 1, 2, 2, [](int, int) { return Mat(); }, head_dim);
    for (auto& layer : t.layers)
        for (auto& h : layer.heads) {
            h.q.resize(t.tokens, head_dim);
            h.k.resize(t.tokens, head_dim);
            for (Mat* m : {&h.q, &h.k})
                for (int i = 0; i < m->size(); ++i) m->data()[i] = normal(rng);
            h.attn = Mat::Constant(t.tokens, t.tokens, 1.0f / t.tokens);
        }
    return t;
}

TEST(ScoreHistogram, CountsEveryOneOfTheNSquaredScoresInItsBin) {
    const Trace t = random_qk_trace(4, 9, 11);  // N = 17, d_k = 9: scaled = raw / 3
    const ScoreHistogram h = score_histogram(t, 1, 0, 20);
    ASSERT_EQ(h.edges.size(), 21u);
    ASSERT_EQ(h.raw_counts.size(), 20u);
    long long raw_total = 0, scaled_total = 0;
    for (int b = 0; b < 20; ++b) {
        raw_total += h.raw_counts[b];
        scaled_total += h.scaled_counts[b];
        EXPECT_LT(h.edges[b], h.edges[b + 1]);
    }
    EXPECT_EQ(raw_total, 17 * 17);
    EXPECT_EQ(scaled_total, 17 * 17);
    // Brute force: each score counted where the edges bracket it, and the std over all 289.
    const HeadTrace& hd = t.layers[1].heads[0];
    std::vector<long long> raw_count(20, 0), scaled_count(20, 0);
    double sum = 0, sq = 0;
    for (int i = 0; i < 17; ++i)
        for (int j = 0; j < 17; ++j) {
            double s = 0;
            for (int c = 0; c < 9; ++c) s += double(hd.q(i, c)) * hd.k(j, c);
            sum += s;
            sq += s * s;
            for (auto [value, counts] : {std::pair{s, &raw_count}, std::pair{s / 3, &scaled_count}})
                for (int b = 0; b < 20; ++b)
                    if (value >= h.edges[b] - 1e-9 && (value < h.edges[b + 1] - 1e-9 || b == 19)) {
                        ++(*counts)[b];
                        break;
                    }
        }
    EXPECT_EQ(raw_count, h.raw_counts);
    EXPECT_EQ(scaled_count, h.scaled_counts);
    const double mean = sum / 289, std = std::sqrt(sq / 289 - mean * mean);
    EXPECT_NEAR(h.raw_std, std, 1e-4 * std);
    EXPECT_NEAR(h.scaled_std, std / 3, 1e-4 * std);
    EXPECT_NEAR(h.raw_mean, mean, 1e-4 * std);
}

TEST(ScoreHistogram, RefusesZeroBinsAndBadHeads) {
    const Trace t = random_qk_trace(2, 4, 3);
    EXPECT_THROW(score_histogram(t, 0, 0, 0), Error);
    EXPECT_THROW(score_histogram(t, 2, 0), Error);
    EXPECT_THROW(score_histogram(t, 0, 5), Error);
}

TEST(DotProductControl, StdOfQDotKIsSqrtDk) {
    const std::vector<DotProductSpread> c = dot_product_control();
    ASSERT_EQ(c.size(), 4u);
    const int dims[] = {16, 64, 256, 1024};
    for (size_t i = 0; i < c.size(); ++i) {
        EXPECT_EQ(c[i].d_k, dims[i]);
        EXPECT_EQ(c[i].samples, kDotProductSamples);
        EXPECT_EQ(c[i].theory_std, std::sqrt(double(dims[i])));
        // The std of a sample std over 10000 draws is about 1/sqrt(2 * 10000) = 0.7%: 4% is over 5 sigma.
        EXPECT_NEAR(c[i].measured_std / c[i].theory_std, 1.0, 0.04) << dims[i];
    }
    // Fixed seed: the same numbers every time; another seed, others.
    EXPECT_EQ(dot_product_control({256})[0].measured_std, c[2].measured_std);
    EXPECT_NE(dot_product_control({256}, kDotProductSamples, 5)[0].measured_std, c[2].measured_std);
}

TEST(ScaledSpread, NearUnitMeansWithinAFactorOfTwoOfOne) {
    EXPECT_TRUE(near_unit_spread(1.0));
    EXPECT_TRUE(near_unit_spread(0.5));
    EXPECT_TRUE(near_unit_spread(2.0));
    EXPECT_FALSE(near_unit_spread(0.49));
    EXPECT_FALSE(near_unit_spread(2.51));  // the spread that sat beside "near unit spread" on the page
}

TEST(ScaledSpread, SummaryOverEveryHead) {
    ScalingTable t;
    t.scaled_std.resize(2, 3);
    t.scaled_std << 0.3, 1.0, 2.51, 1.9, 0.6, 4.0;
    t.saturated_raw.resize(2, 3);
    t.saturated_raw << 0.9, 0.6, 0.3, 0.0, 0.0, 0.6;
    t.saturated_scaled = Eigen::MatrixXd::Zero(2, 3);
    t.saturated_scaled(1, 2) = 0.3;
    const ScalingSummary r = scaling_summary(t);
    EXPECT_EQ(r.heads, 6);
    EXPECT_EQ(r.min_scaled_std, 0.3);
    EXPECT_EQ(r.max_scaled_std, 4.0);
    EXPECT_EQ(r.near_unit, 3);  // 1.0, 1.9, 0.6
    EXPECT_NEAR(r.saturated_raw, 0.4, 1e-12);
    EXPECT_NEAR(r.saturated_scaled, 0.05, 1e-12);
    EXPECT_EQ(scaling_summary(ScalingTable{}).heads, 0);
}

}  // namespace
}  // namespace vit
