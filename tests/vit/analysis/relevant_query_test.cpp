// The tour's query on a photo it does not know (vit/analysis/relevant_query.h):
// on hand-made relevance maps, against the criterion applied the slow way
// (every patch checked in turn). tests/session/tour_claims_test.py checks the choice
// on the real model against `vitscope explain --question relevance`.
#include <algorithm>
#include <cstdlib>
#include <vector>

#include <gtest/gtest.h>

#include "support/synthetic_session.h"
#include "vit/analysis/relevant_query.h"
#include "vit/base/error.h"

namespace {

using vit::testing::shaped_trace;

// The criterion by brute force: the most relevant patch in the top quarter
// (a patch is in it when fewer than a quarter of the patches, rounded up,
// are more relevant) that is not left out and not on the border; else the
// same on the border; ties to the lower token.
int by_hand(const vit::Trace& t, const Eigen::VectorXd& rel, const std::vector<int>& left_out) {
    const int patches = t.grid * t.grid, quarter = (patches + 3) / 4;
    for (bool border_allowed : {false, true}) {
        int best = -1;
        for (int p = 0; p < patches; ++p) {
            int above = 0;
            for (int o = 0; o < patches; ++o) above += rel[o] > rel[p];
            const int r = p / t.grid, c = p % t.grid;
            const bool border = r == 0 || c == 0 || r == t.grid - 1 || c == t.grid - 1;
            const bool out = std::count(left_out.begin(), left_out.end(), t.prefix + p) > 0;
            if (above >= quarter || out || (border && !border_allowed)) continue;
            if (best < 0 || rel[p] > rel[best]) best = p;
        }
        if (best >= 0) return t.prefix + best;
    }
    return -1;
}

TEST(RelevantQuery, TheMostRelevantPatchOffTheBorderThatIsNoHighNormToken) {
    const vit::Trace t = shaped_trace(4, 1);  // 16 patches: the top quarter holds 4
    Eigen::VectorXd rel(16);                  // patch p: (p + 1) / 100
    for (int p = 0; p < 16; ++p) rel[p] = (p + 1) / 100.0;
    rel[15] = 0.9;  // (3, 3): the most relevant, a corner, and high-norm below
    rel[4] = 0.8;   // (1, 0): on the border
    rel[9] = 0.7;   // (2, 1): inside
    const std::vector<int> high = {t.token_of(3, 3)};
    const vit::RelevantQuery q = vit::choose_relevant_query(t, rel, high);
    EXPECT_EQ(q.token, by_hand(t, rel, high));
    EXPECT_EQ(q.token, t.token_of(2, 1));
    EXPECT_EQ(q.rank, 3);
    EXPECT_EQ(q.quarter, 4);
    EXPECT_TRUE(q.in_quarter);
    EXPECT_FALSE(q.on_border);
    EXPECT_EQ(q.relevant, (std::vector<int>{t.token_of(3, 3), t.token_of(1, 0), t.token_of(2, 1), t.token_of(3, 2)}));
}

TEST(RelevantQuery, OnTheBorderOnlyWhenNoPatchOffItRanksInTheTopQuarter) {
    const vit::Trace t = shaped_trace(4, 1);
    Eigen::VectorXd rel = Eigen::VectorXd::Zero(16);
    rel[0] = 0.5, rel[3] = 0.6, rel[12] = 0.4, rel[15] = 0.3, rel[5] = 0.2;  // the four corners, then (1, 1)
    const vit::RelevantQuery q = vit::choose_relevant_query(t, rel, {t.token_of(0, 3)});
    EXPECT_EQ(q.token, by_hand(t, rel, {t.token_of(0, 3)}));
    EXPECT_EQ(q.token, t.token_of(0, 0));  // (1, 1) ranks 5th, outside the top 4
    EXPECT_TRUE(q.on_border);
    EXPECT_TRUE(q.in_quarter);
}

TEST(RelevantQuery, AgreesWithTheCriterionOnManyMaps) {
    const vit::Trace t = shaped_trace(6, 1);
    std::srand(7);
    for (int trial = 0; trial < 200; ++trial) {
        Eigen::VectorXd rel(36);
        for (int p = 0; p < 36; ++p) rel[p] = std::rand() % 20;  // ties on purpose
        std::vector<int> high;
        for (int p = 0; p < 36; ++p)
            if (std::rand() % 6 == 0) high.push_back(t.prefix + p);
        const vit::RelevantQuery q = vit::choose_relevant_query(t, rel, high);
        const int expected = by_hand(t, rel, high);
        if (expected >= 0) {
            EXPECT_EQ(q.token, expected) << "trial " << trial;
            EXPECT_TRUE(q.in_quarter);
        }
        EXPECT_EQ(std::count(high.begin(), high.end(), q.token), 0) << "trial " << trial;
    }
}

TEST(RelevantQuery, RefusesAMapOfTheWrongSize) {
    EXPECT_THROW(vit::choose_relevant_query(shaped_trace(4, 1), Eigen::VectorXd::Zero(15), {}), vit::Error);
}

// The tokens left out: over 10 x the median patch norm entering any layer or leaving the last.
TEST(RelevantQuery, HighNormTokensAnywhereInTheTrace) {
    vit::Trace t = shaped_trace(4, 1, 2);
    for (auto& layer : t.layers) layer.x_in = vit::Mat::Constant(t.tokens, 2, 1.f);
    t.last_block_out = vit::Mat::Constant(t.tokens, 2, 1.f);
    t.layers[1].x_in(t.token_of(0, 0), 0) = 40.f;
    t.last_block_out(t.token_of(3, 3), 1) = 40.f;
    t.layers[0].x_in(0, 0) = 99.f;  // CLS: not a patch
    EXPECT_EQ(vit::high_norm_anywhere(t), (std::vector<int>{t.token_of(0, 0), t.token_of(3, 3)}));
}

}  // namespace
