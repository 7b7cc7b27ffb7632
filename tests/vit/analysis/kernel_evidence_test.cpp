// Evidence against a fixed kernel, on hand-filled traces: the head where two
// photos differ most, and the weight each offset of the 3 x 3 neighbourhood
// gets over every query (one value for a kernel, a range for a head).
#include <cmath>

#include <gtest/gtest.h>

#include "vit/analysis/kernel_evidence.h"
#include "vit/base/error.h"

namespace vit {
namespace kernel_evidence_test {  // named: the unity build batches it with tests of the same constant names

constexpr int kGrid = 4, kPrefix = 1, kTokens = kPrefix + kGrid * kGrid;

Trace uniform_trace(int layers, int heads) {
    Trace t;
    t.grid = kGrid;
    t.prefix = kPrefix;
    t.tokens = kTokens;
    t.head_dim = 4;
    t.layers.resize(layers);
    for (auto& l : t.layers) {
        l.heads.resize(heads);
        for (HeadTrace& h : l.heads) h.attn = Mat::Constant(kTokens, kTokens, 1.f / kTokens);
    }
    return t;
}

TEST(KernelEvidence, MostDifferentHeadHasTheLargestDivergence) {
    const Trace a = uniform_trace(2, 2);
    Trace b = uniform_trace(2, 2);
    const int q = a.token_of(1, 1);
    // Layer 0 head 1: a little different; layer 1 head 0: all on one key (most different).
    b.layers[0].heads[1].attn.row(q).setConstant(0.5f / kTokens);
    b.layers[0].heads[1].attn(q, 0) += 0.5f;
    b.layers[1].heads[0].attn.row(q).setZero();
    b.layers[1].heads[0].attn(q, 3) = 1.f;
    const DifferingHead d = most_different_head(a, b, q);
    EXPECT_EQ(d.layer, 1);
    EXPECT_EQ(d.head, 0);
    // JSD of uniform over 17 against one-hot: (log2(17) - ... ) computed directly.
    const double n = kTokens, m_hot = (1.0 / n + 1.0) / 2, m_rest = 0.5 / n;
    const double kl_u = (1.0 / n) * std::log2((1.0 / n) / m_hot) + (n - 1) / n * std::log2((1.0 / n) / m_rest);
    const double kl_hot = std::log2(1.0 / m_hot);
    EXPECT_NEAR(d.jsd, (kl_u + kl_hot) / 2, 1e-6);
    // The same photo twice: every head 0; the first is named.
    const DifferingHead same = most_different_head(a, a, q);
    EXPECT_EQ(same.layer, 0);
    EXPECT_EQ(same.head, 0);
    EXPECT_EQ(same.jsd, 0.0);
}

TEST(KernelEvidence, AConvolutionLikeHeadHasOneWeightPerOffset) {
    // Every query puts 0.5 on itself and 0.5 on its right neighbour (or on itself at the right edge).
    Trace t = uniform_trace(1, 1);
    Mat& a = t.layers[0].heads[0].attn;
    a.setZero();
    for (int r = 0; r < kGrid; ++r)
        for (int c = 0; c < kGrid; ++c) {
            const int i = t.token_of(r, c);
            a(i, i) += 0.5f;
            a(i, c + 1 < kGrid ? t.token_of(r, c + 1) : i) += 0.5f;
        }
    const auto o = offset_weights(t, 0, 0);
    EXPECT_EQ(o[4].dr, 0);
    EXPECT_EQ(o[4].dc, 0);
    EXPECT_EQ(o[4].queries, kGrid * kGrid);
    EXPECT_EQ(o[4].min, 0.5);  // the query itself
    EXPECT_EQ(o[4].max, 1.0);  // at the right edge both halves land on it
    EXPECT_EQ(o[5].dc, 1);
    EXPECT_EQ(o[5].queries, kGrid * (kGrid - 1));  // the right column has no right neighbour
    EXPECT_EQ(o[5].min, 0.5);
    EXPECT_EQ(o[5].max, 0.5);  // one number, as a kernel
    EXPECT_EQ(o[0].queries, (kGrid - 1) * (kGrid - 1));
    EXPECT_EQ(o[0].max, 0.0);
    const OffsetWeights widest = widest_offset(o);
    EXPECT_EQ(widest.dr, 0);
    EXPECT_EQ(widest.dc, 0);
    EXPECT_EQ(widest.range(), 0.5);
    EXPECT_EQ(widest.min_query, t.token_of(0, 0));  // the first of the queries with 0.5
    EXPECT_EQ(widest.max_query, t.token_of(0, kGrid - 1));
}

TEST(KernelEvidence, RefusesHeadsOutOfRangeAndTracesWithoutWeights) {
    Trace t = uniform_trace(1, 2);
    EXPECT_THROW(offset_weights(t, 1, 0), Error);
    EXPECT_THROW(offset_weights(t, 0, 2), Error);
    t.layers[0].heads[1].attn.resize(0, 0);
    EXPECT_THROW(offset_weights(t, 0, 1), Error);
}

}  // namespace kernel_evidence_test
}  // namespace vit
