// The "global, not local" numbers on hand-filled traces: one-hot attention
// rows land in exactly one distance band, the farthest quarter follows its
// stated ranking, and the per-head mean beyond 3 patches counts what it says.
#include <gtest/gtest.h>

#include "vit/analysis/global.h"
#include "vit/base/error.h"

namespace vit {
namespace {

constexpr int kGrid = 10, kPrefix = 1, kTokens = kPrefix + kGrid * kGrid, kHeads = 3;

Trace grid_trace() {
    Trace t;
    t.grid = kGrid;
    t.prefix = kPrefix;
    t.tokens = kTokens;
    t.head_dim = 4;
    t.layers.resize(1);
    t.layers[0].heads.resize(kHeads);
    for (HeadTrace& h : t.layers[0].heads) h.attn = Mat::Zero(kTokens, kTokens);
    return t;
}

Vec one_hot(int token) {
    Vec w = Vec::Zero(kTokens);
    w[token] = 1.f;
    return w;
}

TEST(DistanceBands, BandsOfChebyshevDistances) {
    const int expected[] = {0, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4};
    for (int d = 0; d <= 10; ++d) EXPECT_EQ(distance_band(d), expected[d]) << d;
    EXPECT_STREQ(distance_band_name(0), "same");
    EXPECT_STREQ(distance_band_name(4), "8+");
}

TEST(DistanceBands, OneHotAttentionFillsExactlyItsBand) {
    const Trace t = grid_trace();
    const int query = t.token_of(2, 3);
    // A key per case: the query itself, a diagonal neighbour, 3 rows away,
    // 3 columns away, 4 away both ways, 7 rows and 6 columns away, 6 columns away.
    struct Case {
        int row, col, band;
    };
    const Case cases[] = {{2, 3, 0}, {1, 4, 1}, {5, 2, 2}, {2, 0, 2}, {6, 7, 3}, {9, 9, 3}, {2, 10 - 1, 3}};
    for (const Case& c : cases) {
        const DistanceMass m = distance_mass(t, one_hot(t.token_of(c.row, c.col)), query);
        for (int b = 0; b < kDistanceBands; ++b) EXPECT_EQ(m.band[b], b == c.band ? 1.0 : 0.0) << c.row << "," << c.col;
        EXPECT_EQ(m.within_3x3, c.band <= 1 ? 1.0 : 0.0);
        EXPECT_EQ(m.beyond_3x3, c.band <= 1 ? 0.0 : 1.0);
        EXPECT_EQ(m.prefix, 0.0);
    }
    // 8 or more needs a query near one side: (0, 0) against (8, 1) and (9, 9).
    for (int key : {t.token_of(8, 1), t.token_of(9, 9)}) {
        const DistanceMass m = distance_mass(t, one_hot(key), t.token_of(0, 0));
        EXPECT_EQ(m.band[4], 1.0);
        EXPECT_EQ(m.band[0] + m.band[1] + m.band[2] + m.band[3], 0.0);
    }
}

TEST(DistanceBands, PrefixWeightIsLeftOutAndNotRenormalised) {
    const Trace t = grid_trace();
    Vec w = Vec::Zero(kTokens);
    w[0] = 0.6f;                 // CLS
    w[t.token_of(4, 4)] = 0.3f;  // same patch
    w[t.token_of(4, 9)] = 0.1f;  // 5 columns away
    const DistanceMass m = distance_mass(t, w, t.token_of(4, 4));
    EXPECT_NEAR(m.prefix, 0.6, 1e-7);
    EXPECT_NEAR(m.band[0], 0.3, 1e-7);
    EXPECT_NEAR(m.band[3], 0.1, 1e-7);
    EXPECT_NEAR(m.band[0] + m.band[1] + m.band[2] + m.band[3] + m.band[4], 0.4, 1e-7);
}

TEST(DistanceBands, FarthestQuarterFollowsItsRanking) {
    const Trace t = grid_trace();
    const std::vector<int> far = farthest_quarter(t, t.token_of(0, 0));
    ASSERT_EQ(far.size(), 25u);  // ceil(100 / 4)
    // The 19 patches of the last row and column (distance 9) come first.
    for (int i = 0; i < 19; ++i) EXPECT_TRUE(t.row_of(far[i]) == 9 || t.col_of(far[i]) == 9) << i;
    EXPECT_EQ(far[0], t.token_of(9, 9));  // the largest Euclidean distance among them
    // Then distance 8 by Euclidean distance: (8,8), (7,8) / (8,7), (6,8) / (8,6),
    // and of the tied (5,8) and (8,5) only the lower token index, (5,8).
    const std::vector<int> rest(far.begin() + 19, far.end());
    const std::vector<int> want = {t.token_of(8, 8), t.token_of(7, 8), t.token_of(8, 7),
                                   t.token_of(6, 8), t.token_of(8, 6), t.token_of(5, 8)};
    EXPECT_EQ(rest, want);
    // Its mass: a one-hot row on a patch inside it, and on one just outside.
    EXPECT_EQ(distance_mass(t, one_hot(t.token_of(5, 8)), t.token_of(0, 0)).far_quarter, 1.0);
    EXPECT_EQ(distance_mass(t, one_hot(t.token_of(8, 5)), t.token_of(0, 0)).far_quarter, 0.0);
    // A grid that does not divide by 4: 3 x 3 -> 3 patches, the corners first.
    Trace small = t;
    small.grid = 3;
    small.tokens = 10;
    EXPECT_EQ(farthest_quarter(small, small.token_of(1, 1)),
              (std::vector<int>{small.token_of(0, 0), small.token_of(0, 2), small.token_of(2, 0)}));
}

TEST(DistanceBands, MeanMassBeyondThreePatchesPerHead) {
    Trace t = grid_trace();
    auto& heads = t.layers[0].heads;
    for (int i = 0; i < kTokens; ++i) {
        heads[0].attn(i, i) = 1.f;  // each token on itself: nothing beyond
        heads[1].attn(i, 0) = 1.f;  // everything on CLS: prefix counts as not beyond
        if (t.is_patch(i))          // 5 columns to the right, wrapping: always 5 away
            heads[2].attn(i, t.token_of(t.row_of(i), (t.col_of(i) + 5) % kGrid)) = 1.f;
    }
    const std::vector<double> beyond = mean_mass_beyond(t, 0, 3);
    ASSERT_EQ(beyond.size(), 3u);
    EXPECT_EQ(beyond[0], 0.0);
    EXPECT_EQ(beyond[1], 0.0);
    EXPECT_EQ(beyond[2], 1.0);
    EXPECT_EQ(mean_mass_beyond(t, 0, 5)[2], 0.0);  // exactly 5 away is not beyond 5
}

TEST(NeighbourhoodShares, SharesOfPatchWeightBesideTheEvenSpreadBaseline) {
    const Trace t = grid_trace();
    Vec w = Vec::Zero(kTokens);
    w[0] = 0.5f;                 // CLS: left out, the rest renormalised
    w[t.token_of(4, 4)] = 0.2f;  // the query itself
    w[t.token_of(5, 5)] = 0.1f;  // a diagonal neighbour
    w[t.token_of(4, 6)] = 0.2f;  // 2 columns away: outside the 3 x 3
    const NeighbourhoodShares s = neighbourhood_shares(t, w, t.token_of(4, 4));
    EXPECT_NEAR(s.inside, 0.6, 1e-6);
    EXPECT_NEAR(s.beyond, 0.4, 1e-6);
    EXPECT_DOUBLE_EQ(s.beyond_baseline, 91.0 / 100);  // 9 of the 100 patches are the neighbourhood
    // A corner query has 3 neighbours: 96 of 100 outside.
    EXPECT_DOUBLE_EQ(neighbourhood_shares(t, one_hot(t.token_of(9, 9)), t.token_of(0, 0)).beyond_baseline, 0.96);
    EXPECT_DOUBLE_EQ(neighbourhood_shares(t, one_hot(t.token_of(9, 9)), t.token_of(0, 0)).beyond, 1.0);
}

TEST(NeighbourhoodShares, FarthestReachingHeadIsTheOneWithMostWeightBeyond) {
    Trace t = grid_trace();
    auto& heads = t.layers[0].heads;
    const int q = t.token_of(3, 3);
    heads[0].attn(q, q) = 1.f;                                              // all inside
    heads[1].attn(q, q) = 0.4f, heads[1].attn(q, t.token_of(8, 8)) = 0.6f;  // 0.6 beyond
    heads[2].attn(q, q) = 0.7f, heads[2].attn(q, t.token_of(0, 9)) = 0.3f;  // 0.3 beyond
    ReachingHead r = farthest_reaching_head(t, 0, q);
    EXPECT_EQ(r.head, 1);
    EXPECT_NEAR(r.shares.beyond, 0.6, 1e-6);
    EXPECT_TRUE(r.holds);
    // With no head past half, the best is still named, and the claim does not hold.
    heads[1].attn(q, q) = 0.8f, heads[1].attn(q, t.token_of(8, 8)) = 0.2f;
    r = farthest_reaching_head(t, 0, q);
    EXPECT_EQ(r.head, 2);
    EXPECT_NEAR(r.shares.beyond, 0.3, 1e-6);
    EXPECT_FALSE(r.holds);
    EXPECT_THROW(farthest_reaching_head(t, 1, q), Error);
    EXPECT_THROW(farthest_reaching_head(t, 0, 0), Error);  // CLS
}

TEST(DistanceBands, RefusesNonPatchQueriesAndShortRows) {
    Trace t = grid_trace();
    EXPECT_THROW(distance_mass(t, one_hot(1), 0), Error);  // CLS has no place on the grid
    EXPECT_THROW(distance_mass(t, Vec::Zero(5), t.token_of(0, 0)), Error);
    EXPECT_THROW(farthest_quarter(t, 0), Error);
    EXPECT_THROW(mean_mass_beyond(t, 1), Error);
}

}  // namespace
}  // namespace vit
