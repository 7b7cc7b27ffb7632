// Cosine similarity of position embeddings: on embeddings made to have known
// angles, at the trained grid and at an interpolated one.
#include <gtest/gtest.h>

#include <cmath>

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
        for (int q = 0; q < 9; ++q) EXPECT_NEAR(s(p, q), std::cos((p - q) * 20.0 * M_PI / 180.0), 1e-6) << p << "," << q;
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

}  // namespace
}  // namespace vit
