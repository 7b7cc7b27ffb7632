// What heads buy: mean attention distance, spread and the divergence between
// heads, on hand-made attention whose answers are known.
#include <gtest/gtest.h>

#include <cmath>

#include "support/hand_made_trace.h"
#include "vit/analysis/heads.h"
#include "vit/base/error.h"

namespace vit {
namespace heads_test {  // named: global_test.cpp, in the same unity batch, has its own kGrid

constexpr int kGrid = 14, kPrefix = 1, kTokens = kPrefix + kGrid * kGrid, kPatch = 16;

TEST(MeanAttentionDistance, OneHotOnTheDiagonalIsZero) {
    const Trace t =
        testing::hand_made_trace(kGrid, kPrefix, 2, 3, [](int, int) { return Mat(Mat::Identity(kTokens, kTokens)); });
    const Eigen::MatrixXd d = mean_attention_distances(t, kPatch);
    ASSERT_EQ(d.rows(), 2);
    ASSERT_EQ(d.cols(), 3);
    EXPECT_EQ(d.maxCoeff(), 0.0);
    EXPECT_EQ(d.minCoeff(), 0.0);
}

TEST(MeanAttentionDistance, UniformWeightsGiveTheGridsMeanPairDistance) {
    // Uniform over all 197 keys, CLS included: renormalised over the 196 patch
    // keys it is uniform over them, so the answer is the mean distance between
    // two patch centres of the 14 x 14 grid, by brute force over positions.
    double sum = 0;
    for (int r1 = 0; r1 < kGrid; ++r1)
        for (int c1 = 0; c1 < kGrid; ++c1)
            for (int r2 = 0; r2 < kGrid; ++r2)
                for (int c2 = 0; c2 < kGrid; ++c2) sum += std::hypot((r1 - r2) * 16.0, (c1 - c2) * 16.0);
    const double expected = sum / std::pow(kGrid, 4);
    EXPECT_NEAR(expected, 116.49, 0.01);  // 7.28 patches (NumPy over the same pairs)
    const Trace t =
        testing::hand_made_trace(kGrid, kPrefix, 1, 1, [](int, int) { return testing::uniform_rows(kTokens); });
    EXPECT_NEAR(mean_attention_distance(t, 0, 0, kPatch), expected, 1e-9 * expected);
}

TEST(MeanAttentionDistance, PrefixKeysAreExcludedAndTheRestRenormalised) {
    // Each patch query: 0.6 on CLS, 0.4 on its horizontal neighbour (to the
    // right, or to the left in the last column): one patch away, 16 px, for every query.
    const Trace t = testing::hand_made_trace(3, 2, 1, 1, [](int, int) {
        Mat a = Mat::Zero(11, 11);
        a.col(0).setConstant(0.6f);
        for (int i = 0; i < 9; ++i) a(2 + i, 2 + (i % 3 == 2 ? i - 1 : i + 1)) = 0.4f;
        a.topRows(2).setConstant(1.0f / 11);
        return a;
    });
    EXPECT_NEAR(mean_attention_distance(t, 0, 0, kPatch), 16.0, 1e-6);
    EXPECT_NEAR(mean_attention_distance(t, 0, 0, 14), 14.0, 1e-6);  // in the patch size's pixels
}

TEST(MeanSpread, UniformIsEveryKeyAndOneHotIsOne) {
    const Trace t = testing::hand_made_trace(kGrid, kPrefix, 1, 2, [](int, int h) {
        return h == 0 ? testing::uniform_rows(kTokens) : Mat(Mat::Identity(kTokens, kTokens));
    });
    const Eigen::MatrixXd s = mean_spreads(t);
    EXPECT_NEAR(s(0, 0), kTokens, 1e-3);
    EXPECT_NEAR(s(0, 1), 1.0, 1e-12);
}

TEST(HeadDivergences, SameHeadsZeroUniformAgainstOneHotKnown) {
    // Heads 0 and 1 identical (uniform); head 2 one-hot on the diagonal.
    const Trace t = testing::hand_made_trace(kGrid, kPrefix, 1, 3, [](int, int h) {
        return h < 2 ? testing::uniform_rows(kTokens) : Mat(Mat::Identity(kTokens, kTokens));
    });
    const Eigen::MatrixXd d = head_divergences(t, 0);
    ASSERT_EQ(d.rows(), 3);
    EXPECT_NEAR(d(0, 1), 0.0, 1e-12);
    // Uniform p over n against one-hot q: m = p/2 + q/2; KL(q||m) = ln(2n/(n+1)),
    // KL(p||m) = ((n-1)/n) ln 2 + (1/n) ln(2/(n+1)); in bits, divided by ln 2.
    const double n = kTokens;
    const double expected =
        0.5 * (std::log(2 * n / (n + 1)) + (n - 1) / n * std::log(2.0) + std::log(2 / (n + 1)) / n) / std::log(2.0);
    EXPECT_NEAR(d(0, 2), expected, 1e-6);
    EXPECT_NEAR(d(2, 1), expected, 1e-6);
    EXPECT_EQ(d(1, 1), 0.0);
    EXPECT_THROW(head_divergences(t, 1), Error);
}

}  // namespace heads_test
}  // namespace vit
