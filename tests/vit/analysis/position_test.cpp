// Cosine similarity of position embeddings: on embeddings made to have known
// angles, at the trained grid and at an interpolated one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "vit/analysis/position.h"
#include "vit/base/error.h"
#include "vit/forward/forward.h"

namespace vit {
namespace {

// A 3 x 3 grid whose position p has the embedding (cos 20p deg, sin 20p deg, 0)
// scaled by p + 1 (so the cosine must divide by the norms), and CLS (7, 7, 7).
Model angle_model() {
    Model m;
    m.dim = 3;
    m.pos_grid = 3;
    m.pos = Mat::Zero(1 + 9, 3);
    m.pos.row(0) << 7, 7, 7;
    for (int p = 0; p < 9; ++p) {
        const double a = p * 20.0 * M_PI / 180.0;
        m.pos.row(1 + p) << (p + 1) * std::cos(a), (p + 1) * std::sin(a), 0;
    }
    return m;
}

TEST(PositionSimilarity, CosinesOfKnownAngles) {
    const Model m = angle_model();
    const Mat s = position_similarity(m, 3);
    ASSERT_EQ(s.rows(), 9);
    ASSERT_EQ(s.cols(), 9);
    for (int p = 0; p < 9; ++p)
        for (int q = 0; q < 9; ++q)
            EXPECT_NEAR(s(p, q), std::cos((p - q) * 20.0 * M_PI / 180.0), 1e-6) << p << "," << q;
    const Vec r = position_similarity_row(m, 3, 1, 2);  // position 5
    EXPECT_LT((r.transpose() - s.row(5)).cwiseAbs().maxCoeff(), 1e-7f);
}

TEST(PositionSimilarity, InterpolatedAtAnotherGrid) {
    const Model m = angle_model();
    const Mat s = position_similarity(m, 5);
    ASSERT_EQ(s.rows(), 25);
    const Mat pos = interpolate_pos_embed(m, 5).bottomRows(25);
    for (int p : {0, 7, 24})
        for (int q : {0, 3, 12, 24}) {
            const double want = pos.row(p).cast<double>().dot(pos.row(q).cast<double>()) /
                                (pos.row(p).cast<double>().norm() * pos.row(q).cast<double>().norm());
            EXPECT_NEAR(s(p, q), want, 1e-6);
        }
}

TEST(PositionSimilarity, ZeroEmbeddingHasCosineZeroAndOutsideIsRefused) {
    Model m = angle_model();
    m.pos.row(1 + 4).setZero();
    const Vec r = position_similarity_row(m, 3, 1, 1);
    EXPECT_EQ(r.cwiseAbs().maxCoeff(), 0.f);
    EXPECT_THROW(position_similarity_row(m, 3, 3, 0), Error);
    EXPECT_THROW(position_similarity_row(m, 3, 0, -1), Error);
}

TEST(PositionStructure, MeansOverNeighboursAndFarPairsByRowAndColumn) {
    // A 5 x 5 grid whose "cosine" is a code of the pair: 1 for neighbours,
    // 0.5 far in the same row, 0.25 far in the same column, -1 far elsewhere, 9 otherwise.
    const int g = 5, n = g * g;
    Mat s(n, n);
    int far_row = 0, far_col = 0, far_other = 0;
    for (int p = 0; p < n; ++p)
        for (int q = 0; q < n; ++q) {
            const int dr = std::abs(p / g - q / g), dc = std::abs(p % g - q % g), d = std::max(dr, dc);
            float v = 9.f;
            if (d == 1) v = 1.f;
            else if (d >= 4 && dr == 0) v = 0.5f, ++far_row;
            else if (d >= 4 && dc == 0) v = 0.25f, ++far_col;
            else if (d >= 4) v = -1.f, ++far_other;
            s(p, q) = v;
        }
    const PositionStructure r = position_structure(s, g);
    EXPECT_DOUBLE_EQ(r.neighbours, 1.0);
    EXPECT_DOUBLE_EQ(r.far_same_row, 0.5);
    EXPECT_DOUBLE_EQ(r.far_same_col, 0.25);
    EXPECT_DOUBLE_EQ(r.far_other, -1.0);
    EXPECT_NEAR(r.far, (0.5 * far_row + 0.25 * far_col - far_other) / (far_row + far_col + far_other), 1e-12);
    EXPECT_TRUE(r.holds());
    EXPECT_THROW(position_structure(Mat::Zero(4, 4), g), Error);
}

}  // namespace
}  // namespace vit
