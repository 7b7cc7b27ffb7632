// Predict, then reveal in the session: the phases through apply, marking and
// unmarking patches, and the reveal's numbers in the state file against the
// trace's own row summed here.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "session/classroom/prediction.h"
#include "session/dispatch/requests.h"
#include "session/state/app_state.h"
#include "session/dispatch/state_file.h"
#include "session/tour/tour_show.h"
#include "support/synthetic_session.h"
#include "support/synthetic_trace.h"
#include "session/dispatch/adopt.h"

namespace {

using Phase = session::AppState::Prediction::Phase;
namespace act = session::act;

TEST(PredictSession, MarksOnlyWhilePredictingAndOnlyPatches) {
    session::AppState s = vit::testing::state_with(vit::testing::shaped_trace(3, 2));
    session::apply(s, act::ToggleMark{4});
    EXPECT_TRUE(s.prediction.marked.empty());  // not predicting: ignored
    session::apply(s, act::StartPredict{});
    EXPECT_EQ(s.prediction.phase, Phase::Predicting);
    session::apply(s, act::ToggleMark{4});
    session::apply(s, act::ToggleMark{7});
    session::apply(s, act::ToggleMark{0});   // CLS is not on the photo
    session::apply(s, act::ToggleMark{99});  // nor is a token past the grid
    EXPECT_EQ(s.prediction.marked, (std::vector<int>{4, 7}));
    session::apply(s, act::ToggleMark{4});  // a second click unmarks
    EXPECT_EQ(s.prediction.marked, (std::vector<int>{7}));
    EXPECT_FALSE(session::revealed_prediction(s));  // nothing shown before the reveal
    session::apply(s, act::Reveal{});
    EXPECT_EQ(s.prediction.phase, Phase::Revealed);
    session::apply(s, act::ToggleMark{5});  // revealed: the marks are final
    EXPECT_EQ(s.prediction.marked, (std::vector<int>{7}));
    session::apply(s, act::EndPredict{});
    EXPECT_EQ(s.prediction.phase, Phase::Off);
    EXPECT_TRUE(s.prediction.marked.empty());
}

TEST(PredictSession, RevealOnlyFromPredicting) {
    session::AppState s = vit::testing::state_with(vit::testing::shaped_trace(3, 2));
    session::apply(s, act::Reveal{});
    EXPECT_EQ(s.prediction.phase, Phase::Off);
}

TEST(PredictSession, ANewGridDropsTheMarks) {
    session::AppState s = vit::testing::state_with(vit::testing::shaped_trace(3, 2));
    session::apply(s, act::StartPredict{});
    session::apply(s, act::ToggleMark{4});
    session::adopt(s, vit::testing::loaded_with(vit::testing::shaped_trace(4, 2)));
    EXPECT_TRUE(s.prediction.marked.empty());
    EXPECT_EQ(s.prediction.phase, Phase::Predicting);
}

TEST(PredictSession, TheStateFileReportsTheShownRowsWeightOnTheMarks) {
    session::AppState s = vit::testing::state_with(vit::testing::synthetic_trace());
    session::apply(s, act::SetLayer{1});
    session::apply(s, act::SetHead{1});
    session::apply(s, act::SelectQuery{5});
    session::apply(s, act::StartPredict{});
    for (int token : {1, 2, 6}) session::apply(s, act::ToggleMark{token});
    nlohmann::json j = nlohmann::json::parse(session::state_json(s));
    EXPECT_EQ(j["prediction"]["phase"], "predicting");
    EXPECT_FALSE(j["prediction"].contains("weight_on_marked"));  // hidden until the reveal
    session::apply(s, act::Reveal{});
    j = nlohmann::json::parse(session::state_json(s));
    const auto& attn = s.trace()->layers[1].heads[1].attn;
    const double expected = double(attn(5, 1)) + attn(5, 2) + attn(5, 6);
    EXPECT_EQ(j["prediction"]["phase"], "revealed");
    EXPECT_EQ(j["prediction"]["marked"], nlohmann::json::parse("[[0,0],[0,1],[1,2]]"));
    EXPECT_NEAR(j["prediction"]["weight_on_marked"].get<double>(), expected, 1e-9);
    EXPECT_NEAR(j["prediction"]["area_share"].get<double>(), 3.0 / 9.0, 1e-12);
    EXPECT_NE(j["prediction"]["sentence"].get<std::string>().find("3 of 9"), std::string::npos);
}

}  // namespace
