// High-norm tokens (the corners of late layers) on a hand-made trace: the
// median, the tokens above ten times it, and the weight CLS and the patch
// queries put on them. tests/reference/token_norms_test.py checks the real
// model against the NumPy reference.
#include <string>

#include <gtest/gtest.h>

#include "support/synthetic_session.h"
#include "vit/analysis/token_norms.h"
#include "vit/base/error.h"

namespace {

using vit::testing::shaped_trace;

// 2 x 2 grid, 2 layers, 2 heads, token states of 3 numbers.
vit::Trace with_states() {
    vit::Trace t = shaped_trace(2, 2, 2);
    t.layers[1].x_in = vit::Mat::Zero(t.tokens, 3);                   // leaving layer 0
    t.last_block_out = vit::Mat::Zero(t.tokens, 3);                   // leaving layer 1
    for (int j = 0; j < t.tokens; ++j) t.layers[1].x_in(j, 0) = 2.f;  // all norms 2: nothing stands out
    // Leaving layer 1: patches' norms 3, 4 (= 0, 3, 4), 5 and 100; CLS 50 (not a patch: not counted).
    t.last_block_out(0, 0) = 50.f;
    t.last_block_out(1, 0) = 3.f;
    t.last_block_out(2, 1) = 3.f;
    t.last_block_out(2, 2) = 4.f;
    t.last_block_out(3, 0) = 5.f;
    t.last_block_out(4, 2) = 100.f;
    // Layer 1's weights on token 4: CLS's 0.5 in head 0 and 0.1 in head 1; the patch queries'.
    auto& a0 = t.layers[1].heads[0].attn;
    auto& a1 = t.layers[1].heads[1].attn;
    a0(0, 4) = 0.5f;
    a1(0, 4) = 0.1f;
    for (int q = 1; q < t.tokens; ++q) a0(q, 4) = 0.4f, a1(q, 4) = 0.2f;
    return t;
}

TEST(TokenNorms, FindsTheTokensFarAboveTheMedianPatchAndTheWeightOnThem) {
    const std::vector<vit::LayerNorms> n = vit::token_norms(with_states());
    ASSERT_EQ(n.size(), 2u);
    EXPECT_TRUE(n[0].high.empty());
    EXPECT_DOUBLE_EQ(n[0].median_patch_norm, 2);
    EXPECT_DOUBLE_EQ(n[0].top_over_median, 1);
    EXPECT_DOUBLE_EQ(n[1].norm[0], 50);
    EXPECT_DOUBLE_EQ(n[1].norm[2], 5);
    EXPECT_DOUBLE_EQ(n[1].median_patch_norm, 5);  // of 3, 5, 5, 100
    EXPECT_EQ(n[1].high, std::vector<int>{4});    // 100 > 10 x 5; CLS's 50 is not a patch
    EXPECT_DOUBLE_EQ(n[1].top_over_median, 20);
    EXPECT_NEAR(n[1].cls_weight_on_high, 0.3, 1e-6);    // (0.5 + 0.1) / 2
    EXPECT_NEAR(n[1].patch_weight_on_high, 0.3, 1e-6);  // (0.4 + 0.2) / 2 for every patch query
    EXPECT_EQ(vit::first_high_norm_layer(n), 1);
}

TEST(TokenNorms, TheHighNormClaimIsTheLargestPatchNormAgainstTheMedian) {
    const std::vector<vit::LayerNorms> n = vit::token_norms(with_states());
    const vit::ClaimValue flat = vit::high_norm_claim(n[0]), peaked = vit::high_norm_claim(n[1]);
    EXPECT_DOUBLE_EQ(flat.value, 2);
    EXPECT_DOUBLE_EQ(flat.baseline, 2);
    EXPECT_FALSE(vit::claim_holds(flat, vit::kHighNormRatio));  // no high-norm patch: it fails
    EXPECT_DOUBLE_EQ(peaked.value, 100);
    EXPECT_DOUBLE_EQ(peaked.baseline, 5);
    EXPECT_TRUE(vit::claim_holds(peaked, vit::kHighNormRatio));  // token 4 is high-norm: it holds
    EXPECT_EQ(std::string(vit::claim_name(vit::ClaimKind::HighNormTokens)), "high_norm_tokens");
}

TEST(TokenNorms, RefusesATraceWithoutTokenStates) { EXPECT_THROW(vit::token_norms(shaped_trace(2, 2, 2)), vit::Error); }

}  // namespace
