// What a selection shows (session/core/shown_rows.h) on the synthetic trace, grown
// to 3 heads a layer: a head's row as stored, the mean of the visible heads
// against the average written out here, captions, the key the math panel explains.
#include <gtest/gtest.h>

#include "session/dispatch/requests.h"
#include "session/tour/tour_show.h"
#include "session/core/shown_rows.h"
#include "support/synthetic_session.h"
#include "support/synthetic_trace.h"

namespace {

using session::AppState;
using session::MapSource;
namespace act = session::act;

// The synthetic trace with a third head per layer (the other layer's head 0),
// so "some but not all heads" can be told apart from "all".
vit::Trace three_head_trace() {
    vit::Trace t = vit::testing::synthetic_trace();
    const vit::HeadTrace extra0 = t.layers[1].heads[0], extra1 = t.layers[0].heads[0];
    t.layers[0].heads.push_back(extra0);
    t.layers[1].heads.push_back(extra1);
    return t;
}

class ShownRowsTest : public ::testing::Test {
protected:
    AppState s = vit::testing::state_with(three_head_trace());
    const vit::Trace& t() const { return *s.trace(); }
};

TEST_F(ShownRowsTest, AHeadShowsItsStoredRow) {
    const auto row = session::map_row(t(), 1, MapSource::Head, 2, {0}, 6);
    ASSERT_TRUE(row);
    ASSERT_EQ(row->size(), vit::testing::kTokens);
    for (int j = 0; j < vit::testing::kTokens; ++j) EXPECT_EQ((*row)(j), t().layers[1].heads[2].attn(6, j));
}

TEST_F(ShownRowsTest, TheMeanAveragesOnlyTheVisibleHeads) {
    const int layer = 0, query = 3;
    const auto row = session::map_row(t(), layer, MapSource::MeanOfVisible, 1, {0, 2}, query);
    ASSERT_TRUE(row);
    double sum = 0;
    for (int j = 0; j < vit::testing::kTokens; ++j) {
        const double mean =
            (double(t().layers[layer].heads[0].attn(query, j)) + t().layers[layer].heads[2].attn(query, j)) / 2;
        EXPECT_NEAR((*row)(j), mean, 1e-6);
        sum += (*row)(j);
    }
    EXPECT_NEAR(sum, 1.0, 1e-6);  // a mean of softmax rows is one too
}

TEST_F(ShownRowsTest, NoVisibleHeadGivesNothing) {
    EXPECT_FALSE(session::map_row(t(), 0, MapSource::MeanOfVisible, 0, {}, 0));
    for (int h = 0; h < 3; ++h) session::apply(s, act::ToggleHeadVisible{h});
    session::apply(s, act::SetMapSource{MapSource::MeanOfVisible});
    EXPECT_FALSE(session::shown_row(s, 0));
    EXPECT_EQ(session::shown_caption(s, 0), "Layer 0 · no heads visible");
}

TEST_F(ShownRowsTest, ShownRowFollowsTheSelection) {
    session::apply(s, act::SelectQuery{5});
    session::apply(s, act::SetHead{1});
    auto head_row = session::shown_row(s, 1);
    ASSERT_TRUE(head_row);
    EXPECT_TRUE(head_row->isApprox(vit::Vec(t().layers[1].heads[1].attn.row(5).transpose())));

    session::apply(s, act::ToggleHeadVisible{0});
    session::apply(s, act::SetMapSource{MapSource::MeanOfVisible});
    auto mean_row = session::shown_row(s, 1);
    ASSERT_TRUE(mean_row);
    const auto expected = session::map_row(t(), 1, MapSource::MeanOfVisible, 1, {1, 2}, 5);
    EXPECT_EQ(*mean_row, *expected);

    EXPECT_FALSE(session::shown_row(AppState{}, 0));  // nothing loaded
}

TEST_F(ShownRowsTest, CaptionNamesTheHeadOrTheHeadsAveraged) {
    session::apply(s, act::SetHead{2});
    EXPECT_EQ(session::shown_caption(s, 1), "Layer 1 · head 2");
    session::apply(s, act::SetMapSource{MapSource::MeanOfVisible});
    EXPECT_EQ(session::shown_caption(s, 1), "Layer 1 · mean of all heads");
    session::apply(s, act::ToggleHeadVisible{1});
    EXPECT_EQ(session::shown_caption(s, 0), "Layer 0 · mean of heads 0, 2");
}

TEST_F(ShownRowsTest, ExplainedKeyIsPinnedElseHoveredElseTheStrongest) {
    const int layer = 1, head = 0, query = 4;
    session::apply(s, act::SetLayer{layer});
    session::apply(s, act::SetHead{head});
    session::apply(s, act::SelectQuery{query});
    int strongest = 0;
    const auto& a = t().layers[layer].heads[head].attn;
    for (int j = 1; j < vit::testing::kTokens; ++j)
        if (a(query, j) > a(query, strongest)) strongest = j;
    using Why = session::ExplainedKey::Why;
    EXPECT_EQ(session::explained_key(s).token, strongest);
    EXPECT_EQ(session::explained_key(s).why, Why::Strongest);

    const int other = strongest == 2 ? 3 : 2;
    session::apply(s, act::HoverKey{other});
    EXPECT_EQ(session::explained_key(s).token, other);
    EXPECT_EQ(session::explained_key(s).why, Why::Hovered);
    session::apply(s, act::PinKey{8});
    EXPECT_EQ(session::explained_key(s).token, 8);
    EXPECT_EQ(session::explained_key(s).why, Why::Pinned);

    EXPECT_EQ(session::explained_key(AppState{}).token, -1);
    EXPECT_EQ(session::explained_key(AppState{}).why, Why::None);
}

}  // namespace
