// Cross-attention on a synthetic model: with the same photo on both sides it
// is the model's own attention; with another photo it is softmax(q_A k_B^T /
// sqrt(d)) over B's tokens and sum a v_B, recomputed here in double.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "support/random_input.h"
#include "support/synthetic_model.h"
#include "vit/analysis/attention_rows.h"
#include "vit/analysis/cross.h"
#include "vit/base/error.h"

namespace vit {
namespace {

using testing::random_input;

struct CrossAttention : ::testing::Test {
    testing::SyntheticSpec spec = [] {
        testing::SyntheticSpec s;
        s.registers = 1;
        return s;
    }();
    Model model = testing::make_synthetic_model(spec);
    Trace a = forward(model, random_input(spec.image, 1));
    Trace b = forward(model, random_input(spec.image, 2));
};

TEST_F(CrossAttention, WithTheSamePhotoItIsSelfAttention) {
    for (int layer = 0; layer < spec.depth; ++layer)
        for (int head = 0; head < spec.heads; ++head)
            for (int query = 0; query < a.tokens; ++query) {
                const CrossAttentionRow r = cross_attention_row(a, a, layer, head, query);
                EXPECT_EQ(r.raw, raw_scores(a, layer, head, query));
                EXPECT_EQ(r.scaled, scaled_scores(a, layer, head, query));
                EXPECT_LT((r.weights - attention_row(a, layer, head, query)).cwiseAbs().maxCoeff(), 1e-6f);
                EXPECT_LT((r.output.transpose() - a.layers[layer].heads[head].out.row(query)).cwiseAbs().maxCoeff(),
                          1e-5f);
            }
}

TEST_F(CrossAttention, QueriesFromAKeysAndValuesFromB) {
    const int layer = 1, head = 0, query = a.token_of(2, 1);
    const CrossAttentionRow r = cross_attention_row(a, b, layer, head, query);
    const HeadTrace &ha = a.layers[layer].heads[head], &hb = b.layers[layer].heads[head];
    ASSERT_EQ(r.weights.size(), b.tokens);
    Eigen::VectorXd s = hb.k.cast<double>() * ha.q.row(query).transpose().cast<double>() / std::sqrt(a.head_dim);
    Eigen::VectorXd w = (s.array() - s.maxCoeff()).exp();
    w /= w.sum();
    const Eigen::VectorXd o = hb.v.cast<double>().transpose() * w;
    EXPECT_LT((r.scaled.cast<double>() - s).cwiseAbs().maxCoeff(), 1e-5);
    EXPECT_LT((r.weights.cast<double>() - w).cwiseAbs().maxCoeff(), 1e-6);
    EXPECT_LT((r.output.cast<double>() - o).cwiseAbs().maxCoeff(), 1e-5);
    // and it is not A's own row
    EXPECT_GT((r.weights - attention_row(a, layer, head, query)).cwiseAbs().maxCoeff(), 1e-3f);
}

TEST_F(CrossAttention, KeysMayComeFromAnotherInputSize) {
    const Trace big = forward(model, random_input(2 * spec.image, 3));  // 8 x 8 patches, interpolated positions
    const CrossAttentionRow r = cross_attention_row(a, big, 0, 1, 0);
    EXPECT_EQ(r.weights.size(), big.tokens);
    EXPECT_NEAR(r.weights.sum(), 1.f, 1e-5f);
}

TEST_F(CrossAttention, RefusesOutOfRange) {
    EXPECT_THROW(cross_attention_row(a, b, spec.depth, 0, 0), Error);
    EXPECT_THROW(cross_attention_row(a, b, 0, spec.heads, 0), Error);
    EXPECT_THROW(cross_attention_row(a, b, 0, 0, a.tokens), Error);
    Trace no_qkv = forward(model, random_input(spec.image, 4), TraceOptions{false, true, true});
    EXPECT_THROW(cross_attention_row(a, no_qkv, 0, 0, 0), Error);
}

}  // namespace
}  // namespace vit
