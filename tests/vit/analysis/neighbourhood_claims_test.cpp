// The tour's claims about a patch query's weight, on hand-made rows whose
// answers are counted by hand: the 3 x 3 neighbourhood reported apart, the
// region's and the neighbourhood's baselines, and the head a criterion picks.
// tests/session/tour_claims_test.py checks the same numbers on the real model against
// NumPy for every sample photo.
#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include <gtest/gtest.h>

#include "support/synthetic_session.h"
#include "vit/analysis/neighbourhood_claims.h"
#include "vit/base/error.h"

namespace {

using vit::testing::shaped_trace;

// A 4 x 4 grid, query (1, 1): its neighbourhood is rows 0-2, columns 0-2 (9
// patches); the 7 outside are column 3 of rows 0-3 and row 3's columns 0-2.
vit::Vec row_on(const vit::Trace& t, std::initializer_list<std::tuple<int, int, float>> patches, float cls) {
    vit::Vec w = vit::Vec::Zero(t.tokens);
    w[0] = cls;
    for (const auto& [r, c, v] : patches) w[t.token_of(r, c)] = v;
    return w;
}

TEST(NeighbourhoodClaims, SplitsThePatchWeightAtTheNeighbourhoodAndLeavesClsOut) {
    const vit::Trace t = shaped_trace(4, 1);
    const int query = t.token_of(1, 1);
    // CLS 0.2; inside: (1,1) 0.3, (0,0) 0.1; outside: (0,3) 0.2, (3,3) 0.1, (3,0) 0.1.
    const vit::Vec w = row_on(t, {{1, 1, 0.3f}, {0, 0, 0.1f}, {0, 3, 0.2f}, {3, 3, 0.1f}, {3, 0, 0.1f}}, 0.2f);
    // Region: (1,2) inside the neighbourhood, (0,3) and (2,3) outside it, (9,9) off the grid.
    const vit::GridRegion region = {{1, 2}, {0, 3}, {2, 3}, {9, 9}, {0, 3}};
    const vit::NeighbourhoodSplit s = vit::neighbourhood_split(t, w, query, region);
    EXPECT_NEAR(s.within, 0.4 / 0.8, 1e-6);
    EXPECT_NEAR(s.beyond, 0.4 / 0.8, 1e-6);
    EXPECT_NEAR(s.beyond_baseline, 7.0 / 16, 1e-12);
    EXPECT_NEAR(s.region_beyond, 0.2 / 0.8, 1e-6);   // (0,3) only: (1,2) is inside, (2,3) has none
    EXPECT_NEAR(s.region_baseline, 2.0 / 7, 1e-12);  // (0,3) and (2,3) among the 7 outside, counted once

    const vit::ClaimValue region_claim = vit::claim_value(s, vit::ClaimKind::RegionBeyondNeighbourhood);
    EXPECT_NEAR(region_claim.value, 0.25, 1e-6);
    EXPECT_NEAR(region_claim.baseline, 2.0 / 7, 1e-12);
    EXPECT_FALSE(vit::claim_holds(region_claim, 1));  // 0.25 < 0.286: less than an even spread
    EXPECT_TRUE(vit::claim_holds(region_claim, 0.8));
    const vit::ClaimValue beyond = vit::claim_value(s, vit::ClaimKind::BeyondNeighbourhood);
    EXPECT_TRUE(vit::claim_holds(beyond, 1));  // 0.5 >= 0.4375
    EXPECT_FALSE(vit::claim_holds(beyond, 2));
}

TEST(NeighbourhoodClaims, ACornerQueryHasASmallerNeighbourhood) {
    const vit::Trace t = shaped_trace(4, 1);
    const vit::Vec w = row_on(t, {{0, 0, 0.5f}, {3, 3, 0.5f}}, 0.f);
    const vit::NeighbourhoodSplit s = vit::neighbourhood_split(t, w, t.token_of(0, 0));
    EXPECT_NEAR(s.beyond_baseline, 12.0 / 16, 1e-12);  // (0,0)'s neighbourhood holds 4 patches
    EXPECT_NEAR(s.beyond, 0.5, 1e-6);
    EXPECT_EQ(s.region_baseline, 0);  // no region
}

TEST(NeighbourhoodClaims, TheStrongestHeadIsChosenAmongTheLayerAskedFor) {
    vit::Trace t = shaped_trace(4, 2, 2);
    const int query = t.token_of(1, 1);
    const auto set = [&](int layer, int head, float far) {
        t.layers[layer].heads[head].attn.row(query) = row_on(t, {{1, 1, 1 - far}, {3, 3, far}}, 0.f).transpose();
    };
    set(0, 0, 0.1f);
    set(0, 1, 0.3f);
    set(1, 0, 0.6f);
    set(1, 1, 0.2f);
    vit::ChosenHead best = vit::strongest_head(t, query, vit::ClaimKind::BeyondNeighbourhood, {});
    EXPECT_EQ(best.layer, 1);
    EXPECT_EQ(best.head, 0);
    EXPECT_NEAR(best.value.value, 0.6, 1e-6);
    best = vit::strongest_head(t, query, vit::ClaimKind::BeyondNeighbourhood, {}, 0);
    EXPECT_EQ(best.layer, 0);
    EXPECT_EQ(best.head, 1);
    best = vit::strongest_head(t, query, vit::ClaimKind::BeyondNeighbourhood, {}, 0, 1);  // layers 0 to 1
    EXPECT_EQ(best.layer, 1);
    EXPECT_EQ(best.head, 0);
    // The region (3,3) is where the far weight goes: the same order.
    best = vit::strongest_head(t, query, vit::ClaimKind::RegionBeyondNeighbourhood, {{3, 3}});
    EXPECT_EQ(best.layer, 1);
    EXPECT_NEAR(best.value.baseline, 1.0 / 7, 1e-12);
}

TEST(NeighbourhoodClaims, RefusesAQueryThatIsNotAPatchAndARowOfTheWrongLength) {
    const vit::Trace t = shaped_trace(4, 1);
    EXPECT_THROW(vit::neighbourhood_split(t, vit::Vec::Zero(t.tokens), 0), vit::Error);
    EXPECT_THROW(vit::neighbourhood_split(t, vit::Vec::Zero(5), t.token_of(1, 1)), vit::Error);
    EXPECT_THROW(vit::strongest_head(t, t.token_of(1, 1), vit::ClaimKind::BeyondNeighbourhood, {}, 5), vit::Error);
    EXPECT_THROW(vit::strongest_head(t, t.token_of(1, 1), vit::ClaimKind::BeyondNeighbourhood, {}, 1, 0), vit::Error);
    vit::ClaimKind k;
    EXPECT_TRUE(vit::claim_from_name("region_beyond_neighbourhood", &k));
    EXPECT_EQ(k, vit::ClaimKind::RegionBeyondNeighbourhood);
    EXPECT_FALSE(vit::claim_from_name("finds_the_dog", &k));
}

// selective_reach recomputed the slow way: every patch outside the 3 x 3
// neighbourhood and not left out, their weights sorted in double, the ten
// largest over all the patch weight (left-out tokens included).
double reach_by_hand(const vit::Trace& t, const vit::Vec& w, int query, const std::vector<int>& left_out) {
    std::vector<double> far;
    double patches = 0;
    for (int r = 0; r < t.grid; ++r)
        for (int c = 0; c < t.grid; ++c) {
            const int j = t.token_of(r, c);
            patches += w[j];
            const bool near = std::abs(r - t.row_of(query)) <= 1 && std::abs(c - t.col_of(query)) <= 1;
            if (!near && std::count(left_out.begin(), left_out.end(), j) == 0) far.push_back(w[j]);
        }
    std::sort(far.begin(), far.end(), std::greater<>());
    double top = 0;
    for (size_t i = 0; i < far.size() && i < 10; ++i) top += far[i];
    return top / patches;
}

// A 6 x 6 grid, query (2, 2): 27 patches lie outside its neighbourhood.
TEST(SelectiveReach, TheTenHeaviestFarPatchesLeavingTheHighNormTokensOut) {
    const vit::Trace t = shaped_trace(6, 1);
    const int query = t.token_of(2, 2);
    vit::Vec w = vit::Vec::Zero(t.tokens);
    w[0] = 0.3f;                                                        // CLS: not a patch, not in the share
    w[query] = 0.2f;                                                    // inside
    w[t.token_of(0, 0)] = 0.15f;                                        // the corner: left out below
    for (int c = 0; c < 6; ++c) w[t.token_of(5, c)] = 0.02f * (c + 1);  // 0.02 .. 0.12, far
    for (int r = 0; r < 5; ++r) w[t.token_of(r, 5)] += 0.01f;           // 0.01 each, far; (5,5) already there
    const std::vector<int> corner = {t.token_of(0, 0)};
    const vit::SelectiveReach reach = vit::selective_reach(t, w, query, corner);
    EXPECT_NEAR(reach.value.value, reach_by_hand(t, w, query, corner), 1e-6);
    // By hand: row 5 holds 0.42, and four of column 5's 0.01: 0.46 of 0.2 + 0.15 + 0.42 + 0.05 = 0.82.
    EXPECT_NEAR(reach.value.value, 0.46 / 0.82, 1e-6);
    EXPECT_NEAR(reach.value.baseline, 10.0 / 36, 1e-12);
    ASSERT_EQ(reach.patches.size(), 10u);
    EXPECT_EQ(reach.patches[0], t.token_of(5, 5));  // 0.12 + 0.0: the heaviest first
    EXPECT_EQ(reach.left_out, corner);
    EXPECT_TRUE(vit::claim_holds(vit::ClaimKind::SelectiveReach, reach.value, 2));  // 0.561 >= 0.556
    EXPECT_FALSE(vit::claim_holds(vit::ClaimKind::SelectiveReach, reach.value, 3));
    // Without leaving the corner out, it is one of the ten.
    const vit::SelectiveReach all = vit::selective_reach(t, w, query, {});
    EXPECT_NEAR(all.value.value, reach_by_hand(t, w, query, {}), 1e-6);
    EXPECT_NEAR(all.value.value, (0.42 + 0.15 + 0.03) / 0.82, 1e-6);
}

TEST(SelectiveReach, FewerFarPatchesThanTenAllCountAndSetTheBaseline) {
    const vit::Trace t = shaped_trace(4, 1);  // 7 patches outside (1, 1)'s neighbourhood
    const vit::Vec w = row_on(t, {{1, 1, 0.5f}, {3, 3, 0.25f}, {0, 3, 0.25f}}, 0.f);
    const vit::SelectiveReach reach = vit::selective_reach(t, w, t.token_of(1, 1), {});
    EXPECT_EQ(reach.patches.size(), 7u);
    EXPECT_NEAR(reach.value.value, 0.5, 1e-6);
    EXPECT_NEAR(reach.value.baseline, 7.0 / 16, 1e-12);
}

// The high-norm tokens come from the token states entering the layer: a head
// that pours its far weight into one long token reaches nothing.
TEST(SelectiveReach, AHeadClaimLeavesOutTheLongTokensEnteringItsLayer) {
    vit::Trace t = shaped_trace(6, 2, 1);
    const int query = t.token_of(2, 2), corner = t.token_of(5, 5);
    t.layers[0].x_in = vit::Mat::Constant(t.tokens, 2, 1.f);
    t.layers[0].x_in(corner, 0) = 30.f;  // 30 x the median patch norm
    for (int h = 0; h < 2; ++h) {
        auto row = t.layers[0].heads[h].attn.row(query);
        row.setZero();
        row[query] = 0.1f;
        row[h == 0 ? corner : t.token_of(5, 0)] = 0.9f;  // head 0: the long token; head 1: a far patch
    }
    EXPECT_NEAR(vit::head_claim(t, 0, 0, query, vit::ClaimKind::SelectiveReach).value, 0, 1e-6);
    EXPECT_NEAR(vit::head_claim(t, 0, 1, query, vit::ClaimKind::SelectiveReach).value, 0.9, 1e-6);
    const vit::ChosenHead best = vit::strongest_head(t, query, vit::ClaimKind::SelectiveReach, {});
    EXPECT_EQ(best.head, 1);
    // beyond_neighbourhood alone cannot tell them apart.
    EXPECT_NEAR(vit::head_claim(t, 0, 0, query, vit::ClaimKind::BeyondNeighbourhood).value,
                vit::head_claim(t, 0, 1, query, vit::ClaimKind::BeyondNeighbourhood).value, 1e-6);
    t.layers[0].x_in.resize(0, 0);
    EXPECT_THROW(vit::head_claim(t, 0, 0, query, vit::ClaimKind::SelectiveReach), vit::Error);
}

// Q and K chosen so the raw scores are known: q = (s, 0, 0, 0), key j's k =
// (x_j, 0, 0, 0); d_k = 4, so the model's weights are softmax(s x_j / 2).
vit::Trace scored_trace(const std::vector<std::vector<float>>& heads_x, float s) {
    vit::Trace t = shaped_trace(2, static_cast<int>(heads_x.size()), 1);
    for (size_t h = 0; h < heads_x.size(); ++h) {
        vit::HeadTrace& head = t.layers[0].heads[h];
        head.q = vit::Mat::Zero(t.tokens, 4);
        head.k = vit::Mat::Zero(t.tokens, 4);
        head.q.col(0).setConstant(s);
        for (int j = 0; j < t.tokens; ++j) head.k(j, 0) = heads_x[h][j];
        std::vector<double> e(t.tokens);
        double sum = 0;
        for (int i = 0; i < t.tokens; ++i) sum += e[i] = std::exp(s * heads_x[h][i] / 2.0);
        for (int q = 0; q < t.tokens; ++q)
            for (int j = 0; j < t.tokens; ++j) head.attn(q, j) = static_cast<float>(e[j] / sum);
    }
    return t;
}

// The largest softmax weight of scores, in double.
double top_softmax(const std::vector<double>& scores) {
    const double top = *std::max_element(scores.begin(), scores.end());
    double sum = 0;
    for (double v : scores) sum += std::exp(v - top);
    return 1 / sum;
}

TEST(UnscaledTopWeight, TheLargestWeightWithoutAndWithTheDivision) {
    // Head 0: scores 2 x (0, 1, 2, 3, 4); head 1: 2 x (0, 0, 0, 0, 1.2).
    const vit::Trace t = scored_trace({{0, 1, 2, 3, 4}, {0, 0, 0, 0, 1.2f}}, 2.f);
    const int query = t.token_of(0, 0);
    const vit::ClaimValue a = vit::unscaled_top_weight(t, 0, 0, query);
    EXPECT_NEAR(a.value, top_softmax({0, 2, 4, 6, 8}), 1e-6);     // 0.865: short of 0.9
    EXPECT_NEAR(a.baseline, top_softmax({0, 1, 2, 3, 4}), 1e-6);  // 0.636
    EXPECT_FALSE(vit::claim_holds(vit::ClaimKind::UnscaledTopWeight, a, vit::kSaturatedWeight));
    const vit::ClaimValue b = vit::head_claim(t, 0, 1, query, vit::ClaimKind::UnscaledTopWeight);
    EXPECT_NEAR(b.value, top_softmax({0, 0, 0, 0, 2.4}), 1e-6);  // 0.733
    EXPECT_NEAR(b.baseline, top_softmax({0, 0, 0, 0, 1.2}), 1e-6);
    // The rule is a threshold, not a ratio to the baseline.
    EXPECT_TRUE(vit::claim_holds(vit::ClaimKind::UnscaledTopWeight, {0.9, 0.89}, 1));
    EXPECT_FALSE(vit::claim_holds(vit::ClaimKind::UnscaledTopWeight, {0.899, 0.1}, 1));
}

// Where no head saturates the most lopsided one is chosen; where some do, the
// one the division changes most (a head saturated with the division too shows nothing).
TEST(UnscaledTopWeight, TheChoiceIsTheHeadWhereTheDivisionMattersMost) {
    const int query = 1;
    // scores 2x: head 0 (0, 1, 2, 3, 4) 0.865 unscaled; head 1 (0, 0, 0, 0, 1.2) 0.733.
    vit::ChosenHead best = vit::strongest_head(scored_trace({{0, 1, 2, 3, 4}, {0, 0, 0, 0, 1.2f}}, 2.f), query,
                                               vit::ClaimKind::UnscaledTopWeight, {});
    EXPECT_EQ(best.head, 0);
    // scores 2x: head 0 (0, 0, 0, 0, 9): 1.000 unscaled, 0.9995 scaled; head 1 (0, 0, 0, 0, 2): 0.932 against 0.649.
    best = vit::strongest_head(scored_trace({{0, 0, 0, 0, 9}, {0, 0, 0, 0, 2}}, 2.f), query,
                               vit::ClaimKind::UnscaledTopWeight, {});
    EXPECT_EQ(best.head, 1);
    EXPECT_NEAR(best.value.value, top_softmax({0, 0, 0, 0, 4}), 1e-6);
    EXPECT_NEAR(best.value.baseline, top_softmax({0, 0, 0, 0, 2}), 1e-6);
}

TEST(BeyondNeighbourhood, HoldsOnlyWithAtLeastHalfThePatchWeightBeyond) {
    // Half an even spread's share (0.5 x 187/196 = 0.477) is not enough: a sentence says "most of it".
    EXPECT_FALSE(vit::claim_holds(vit::ClaimKind::BeyondNeighbourhood, {0.49, 187.0 / 196}, 0.5));
    EXPECT_TRUE(vit::claim_holds(vit::ClaimKind::BeyondNeighbourhood, {0.5, 187.0 / 196}, 0.5));
    EXPECT_TRUE(vit::claim_holds({0.49, 187.0 / 196}, 0.5));  // the plain ratio rule alone would hold
    vit::ClaimKind k;
    EXPECT_TRUE(vit::claim_from_name("selective_reach", &k));
    EXPECT_EQ(k, vit::ClaimKind::SelectiveReach);
    EXPECT_TRUE(vit::claim_from_name("unscaled_top_weight", &k));
    EXPECT_EQ(k, vit::ClaimKind::UnscaledTopWeight);
}

}  // namespace
