// The Jensen-Shannon divergence against its definition, and between the
// attention rows of two photos.
#include <gtest/gtest.h>

#include <cmath>

#include "support/random_input.h"
#include "support/synthetic_model.h"
#include "vit/analysis/divergence.h"
#include "vit/base/error.h"

namespace vit {
namespace {

Vec row(std::initializer_list<float> values) {
    Vec v(static_cast<Eigen::Index>(values.size()));
    int i = 0;
    for (float x : values) v[i++] = x;
    return v;
}

TEST(JensenShannon, EqualRowsZeroDisjointRowsOneBit) {
    EXPECT_EQ(jensen_shannon(row({0.2f, 0.3f, 0.5f}), row({0.2f, 0.3f, 0.5f})), 0.0);
    EXPECT_NEAR(jensen_shannon(row({1, 0, 0}), row({0, 0.5f, 0.5f})), 1.0, 1e-12);
}

TEST(JensenShannon, MatchesTheDefinitionInBits) {
    // p = (1, 0), q = (1/2, 1/2), m = (3/4, 1/4):
    // KL(p||m) = log2(4/3); KL(q||m) = 1/2 log2(2/3) + 1/2 log2(2).
    const double want = 0.5 * (std::log2(4.0 / 3.0) + 0.5 * std::log2(2.0 / 3.0) + 0.5);
    EXPECT_NEAR(jensen_shannon(row({1, 0}), row({0.5f, 0.5f})), want, 1e-7);
    EXPECT_NEAR(jensen_shannon(row({0.5f, 0.5f}), row({1, 0})), want, 1e-7);  // symmetric
    // Rows are normalised first: scaling one changes nothing.
    EXPECT_NEAR(jensen_shannon(row({2, 0}), row({0.5f, 0.5f})), want, 1e-7);
}

TEST(JensenShannon, RefusesWhatIsNotADistribution) {
    EXPECT_THROW(jensen_shannon(row({0.5f, 0.5f}), row({1, 0, 0})), Error);
    EXPECT_THROW(jensen_shannon(row({1.5f, -0.5f}), row({0.5f, 0.5f})), Error);
    EXPECT_THROW(jensen_shannon(row({0, 0}), row({0.5f, 0.5f})), Error);
}

TEST(AttentionJsd, TwoPhotosSameQuery) {
    testing::SyntheticSpec spec;
    const Model m = testing::make_synthetic_model(spec);
    const Trace a = forward(m, testing::random_input(spec.image, 1)),
                b = forward(m, testing::random_input(spec.image, 2));
    const int query = a.token_of(1, 1);
    EXPECT_EQ(attention_jsd(a, a, 1, 0, query), 0.0);
    const double d = attention_jsd(a, b, 1, 0, query);
    EXPECT_GT(d, 1e-4);
    EXPECT_LE(d, 1.0);
    EXPECT_EQ(d, jensen_shannon(a.layers[1].heads[0].attn.row(query).transpose(),
                                b.layers[1].heads[0].attn.row(query).transpose()));
    const Trace big = forward(m, testing::random_input(2 * spec.image, 3));
    EXPECT_THROW(attention_jsd(a, big, 0, 0, 0), Error);
}

}  // namespace
}  // namespace vit
