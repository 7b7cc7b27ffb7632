// content_reach on hand-made heads: a content-free Gaussian blur fails it at
// any width (while selective_reach, against an even spread, passes the same
// blur), a head that sends one query's weight to far patches no other query
// weighs holds it, and the kernel is the mean weight at each offset, counted
// by hand. tests/session/tour_claims_test.py recomputes it in NumPy on the
// real model's dumps.
#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "support/synthetic_session.h"
#include "vit/analysis/content_reach.h"
#include "vit/base/error.h"

namespace {

using vit::testing::shaped_trace;

// Every patch query's row a Gaussian of its distance to the key (sigma in
// patches), CLS given `cls` of the weight: attention that knows only position.
void gaussian_head(vit::Trace& t, vit::Mat& attn, double sigma, float cls = 0.1f) {
    attn = vit::Mat::Zero(t.tokens, t.tokens);
    attn(0, 0) = 1.f;
    for (int q = t.prefix; q < t.tokens; ++q) {
        double total = 0;
        for (int j = t.prefix; j < t.tokens; ++j) {
            const double dr = t.row_of(j) - t.row_of(q), dc = t.col_of(j) - t.col_of(q);
            total += std::exp(-(dr * dr + dc * dc) / (2 * sigma * sigma));
        }
        attn(q, 0) = cls;
        for (int j = t.prefix; j < t.tokens; ++j) {
            const double dr = t.row_of(j) - t.row_of(q), dc = t.col_of(j) - t.col_of(q);
            attn(q, j) = float((1 - cls) * std::exp(-(dr * dr + dc * dc) / (2 * sigma * sigma)) / total);
        }
    }
}

TEST(ContentReach, AGaussianBlurFailsItAtEveryWidthWhileSelectiveReachPassesIt) {
    vit::Trace t = shaped_trace(14, 1, 1);
    for (double sigma : {1.0, 1.5, 2.5, 4.0}) {
        gaussian_head(t, t.layers[0].heads[0].attn, sigma);
        const vit::Mat& a = t.layers[0].heads[0].attn;
        const vit::PositionKernel k = vit::position_kernel(t, a, {});
        for (int query : {t.token_of(7, 7), t.token_of(4, 9), t.token_of(2, 2)}) {
            const vit::ContentReach r = vit::content_reach(t, a, k, query, {});
            // The kernel is the blur itself (up to the edge's renormalisation): about 1 x its own kernel.
            EXPECT_LT(vit::content_reach_margin(r.value), 1.3) << "sigma " << sigma << " query " << query;
            EXPECT_FALSE(vit::claim_holds(vit::ClaimKind::ContentReach, r.value, 3)) << sigma;
        }
    }
    // The old test against an even spread: the same blur at sigma 1.5 "picks out far patches" 3 x over.
    gaussian_head(t, t.layers[0].heads[0].attn, 1.5);
    const vit::Vec row = t.layers[0].heads[0].attn.row(t.token_of(7, 7)).transpose();
    const vit::SelectiveReach old = vit::selective_reach(t, row, t.token_of(7, 7), {});
    EXPECT_TRUE(vit::claim_holds(vit::ClaimKind::SelectiveReach, old.value, 3)) << old.value.value;
}

// Every query but one blurs; query (7, 7) sends 0.6 of its weight to five
// patches in the far corner, which no query's kernel favours.
TEST(ContentReach, AQueryThatSendsItsWeightToFarPatchesBeatsItsKernel) {
    vit::Trace t = shaped_trace(14, 1, 1);
    vit::Mat& a = t.layers[0].heads[0].attn;
    gaussian_head(t, a, 1.0, 0.f);
    const int query = t.token_of(7, 7);
    a.row(query) *= 0.4f;
    const int far[] = {t.token_of(13, 0), t.token_of(13, 1), t.token_of(12, 0), t.token_of(0, 13), t.token_of(1, 13)};
    for (int j : far) a(query, j) += 0.12f;
    const vit::PositionKernel k = vit::position_kernel(t, a, {});
    const vit::ContentReach r = vit::content_reach(t, a, k, query, {});
    ASSERT_EQ(r.patches.size(), 10u);
    for (int j : far) EXPECT_NE(std::find(r.patches.begin(), r.patches.end(), j), r.patches.end());
    EXPECT_GT(r.value.value, 0.6);
    EXPECT_NEAR(r.value.even, 10.0 / 196, 1e-12);
    EXPECT_TRUE(vit::claim_holds(vit::ClaimKind::ContentReach, r.value, 3));
    EXPECT_GT(vit::content_reach_margin(r.value), 3);
    // Leaving the five far patches out (as if high-norm) leaves a blur: it fails.
    const std::vector<int> out(std::begin(far), std::end(far));
    const vit::ContentReach without = vit::content_reach(t, a, vit::position_kernel(t, a, out), query, out);
    EXPECT_FALSE(vit::claim_holds(vit::ClaimKind::ContentReach, without.value, 3));
    EXPECT_EQ(without.left_out.size(), 5u);
}

// A 4 x 4 grid (offsets -3..3), one head whose weight on a key is a number
// that says where it sits; the kernel's entries counted by hand.
TEST(ContentReach, TheKernelIsTheMeanRenormalisedWeightAtEachOffset) {
    vit::Trace t = shaped_trace(4, 1, 1);
    vit::Mat a = vit::Mat::Zero(t.tokens, t.tokens);
    // Query (0, 0) puts 1 on (0, 1); query (1, 1) puts 0.5 on (1, 2) and 0.5 on CLS; every
    // other query all on itself.
    for (int q = t.prefix; q < t.tokens; ++q) a(q, q) = 1;
    a(t.token_of(0, 0), t.token_of(0, 0)) = 0, a(t.token_of(0, 0), t.token_of(0, 1)) = 1;
    a(t.token_of(1, 1), t.token_of(1, 1)) = 0, a(t.token_of(1, 1), t.token_of(1, 2)) = 0.5f,
                                      a(t.token_of(1, 1), 0) = 0.5f;
    const vit::PositionKernel k = vit::position_kernel(t, a, {});
    // Offset (0, 1): 12 queries have a key there; two give it 1 (CLS's share renormalised away).
    EXPECT_NEAR(k.at(0, 1), 2.0 / 12, 1e-9);
    // Offset (0, 0): all 16 queries, 14 of them 1.
    EXPECT_NEAR(k.at(0, 0), 14.0 / 16, 1e-9);
    EXPECT_NEAR(k.at(3, 3), 0, 1e-12);
    // Leaving (0, 1) out as a key and (1, 1) as a query: offset (0, 1) keeps only (1, 1)'s... which is left out.
    const vit::PositionKernel without = vit::position_kernel(t, a, {t.token_of(0, 1), t.token_of(1, 1)});
    EXPECT_NEAR(without.at(0, 1), 0, 1e-12);
}

TEST(ContentReach, RefusesAQueryThatIsNotAPatch) {
    vit::Trace t = shaped_trace(4, 1, 1);
    const vit::Mat& a = t.layers[0].heads[0].attn;
    EXPECT_THROW(vit::content_reach(t, a, vit::position_kernel(t, a, {}), 0, {}), vit::Error);
    EXPECT_THROW(vit::content_reach(t, 0, 0, t.token_of(1, 1)), vit::Error);  // no token states
    vit::ClaimKind kind;
    EXPECT_TRUE(vit::claim_from_name("content_reach", &kind));
    EXPECT_EQ(kind, vit::ClaimKind::ContentReach);
}

}  // namespace
