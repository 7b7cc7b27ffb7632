// The tour's claims about a patch query's weight, on hand-made rows whose
// answers are counted by hand: the 3 x 3 neighbourhood reported apart, the
// region's and the neighbourhood's baselines, and the head a criterion picks.
// tests/tour_claims_test.py checks the same numbers on the real model against
// NumPy for every sample photo.
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
    EXPECT_NEAR(s.region_beyond, 0.2 / 0.8, 1e-6);  // (0,3) only: (1,2) is inside, (2,3) has none
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

}  // namespace
