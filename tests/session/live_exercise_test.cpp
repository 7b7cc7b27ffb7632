// Classroom mode's live exercise in the session (session/homework/live_exercise.h):
// the answer checks against the trace's own numbers (the row's argmax, the
// stored weight, q·k/√dₖ computed here), the typed-number rules the lesson
// page has (web/lesson/lesson_math.test.js, the same cases), and the phases
// through apply: bad input is a note and keeps the answer, Next starts afresh,
// End and leaving classroom mode end it.
#include <cmath>
#include <cstdio>
#include <memory>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "session/homework/exercise_check.h"
#include "session/homework/live_exercise.h"
#include "session/state/app_state.h"
#include "session/dispatch/state_file.h"
#include "support/synthetic_session.h"
#include "support/synthetic_trace.h"
#include "vit/base/error.h"

namespace {

namespace act = session::act;
namespace live = session::live;

constexpr const char* kExercises = R"(title: Live test
photo: dog.jpg
exercise: Top key
kind: top_key
state: layer=1 head=1 query=1,1 pin=none
text: Which key does query {query} weigh most in layer {layer}, head {head}?
exercise: A weight
kind: weight
state: layer=0 head=1 query=1,1 pin=2,2
tolerance: 0.0001
text: The weight of query {query} on key {key}?
exercise: A scaled score
kind: scaled_score
state: layer=1 head=0 query=0,2 pin=cls
text: q·k = {score}; the scaled score?
exercise: Where it looks
kind: predict_region
state: layer=0 head=0 query=1,1 pin=none
text: Mark where query {query} looks.
exercise: Concept
kind: choice
text: Which?
option: this
option: that
answer: 2
)";

session::AppState started() {
    session::AppState s = vit::testing::state_with(vit::testing::synthetic_trace());
    auto set = std::make_shared<const session::ExerciseSet>(session::parse_exercises(kExercises, "live.exercises"));
    session::prepare_live_exercises(s, *set);
    session::apply(s, act::Live{live::Start{set, "live.exercises"}});
    return s;
}

std::string fixed(double v) {
    char text[64];
    std::snprintf(text, sizeof text, "%.6f", v);
    return text;
}

TEST(LiveExercise, TypedNumbersAreReadAsTheLessonPageReadsThem) {
    EXPECT_DOUBLE_EQ(session::parse_answer_number(" 0.25 ", false).value, 0.25);
    EXPECT_DOUBLE_EQ(session::parse_answer_number(".5", false).value, 0.5);
    EXPECT_DOUBLE_EQ(session::parse_answer_number("0,125", false).value, 0.125);
    EXPECT_DOUBLE_EQ(session::parse_answer_number("\xE2\x88\x92"
                                                  "1.5e-2",
                                                  false)
                         .value,
                     -0.015);
    EXPECT_DOUBLE_EQ(session::parse_answer_number("25%", true).value, 0.25);
    EXPECT_NE(session::parse_answer_number("25%", false).error.find("not a number"), std::string::npos);
    EXPECT_NE(session::parse_answer_number("about a half", false)
                  .error.find("\xE2\x80\x9C"
                              "about a half"),
              std::string::npos);
    EXPECT_FALSE(session::parse_answer_number("1,000.5", false).error.empty());
    EXPECT_FALSE(session::parse_answer_number("", false).error.empty());
}

TEST(LiveExercise, StartsInClassroomModeWithTheFirstExercisesStateAndTheMapsHidden) {
    session::AppState s = started();
    ASSERT_TRUE(session::live_exercise_on(s));
    EXPECT_TRUE(s.classroom);
    EXPECT_EQ(s.sel.layer, 1);
    EXPECT_EQ(s.sel.head, 1);
    EXPECT_EQ(s.sel.query, s.trace()->token_of(1, 1));
    EXPECT_TRUE(session::live_exercise_hides_maps(s));
    EXPECT_STREQ(session::live_phase_name(s), "answering");
}

TEST(LiveExercise, TopKeyIsTheRowsArgmaxAndRevealShowsItsArithmetic) {
    session::AppState s = started();
    const auto& attn = s.trace()->layers[1].heads[1].attn;
    const int q = s.trace()->token_of(1, 1);
    Eigen::Index top = 0, low = 0;
    attn.row(q).maxCoeff(&top);
    attn.row(q).minCoeff(&low);
    session::apply(s, act::Live{live::Pick{static_cast<int>(low)}});
    session::apply(s, act::Live{live::Reveal{}});
    const session::LiveVerdict* v = session::live_verdict(s);
    ASSERT_NE(v, nullptr);
    EXPECT_FALSE(v->check.correct);
    EXPECT_EQ(v->answer.key, top);
    EXPECT_FALSE(session::live_exercise_hides_maps(s));
    ASSERT_TRUE(v->arithmetic);
    const auto& k = *v->arithmetic;
    const double score = s.trace()->layers[1].heads[1].q.row(q).cast<double>().dot(
        s.trace()->layers[1].heads[1].k.row(top).cast<double>());
    EXPECT_NEAR(k.score, score, 1e-4);
    EXPECT_NEAR(k.scaled, score / 2.0, 1e-4);  // d_k = 4
    EXPECT_NEAR(k.exp_scaled / k.z, attn(q, top), 1e-6);
    EXPECT_EQ(s.sel.pinned_key, top);  // the photo shows the answer's key
    // Revealed: the answer is final.
    session::apply(s, act::Live{live::Pick{static_cast<int>(top)}});
    EXPECT_EQ(s.live_exercise.picked, low);
    // Previous / Next start afresh; the right key is right.
    session::apply(s, act::Live{live::Go{1}});
    session::apply(s, act::Live{live::Go{0}});
    EXPECT_STREQ(session::live_phase_name(s), "answering");
    EXPECT_EQ(s.live_exercise.picked, -1);
    session::apply(s, act::Live{live::Pick{static_cast<int>(top)}});
    session::apply(s, act::Live{live::Reveal{}});
    ASSERT_NE(session::live_verdict(s), nullptr);
    EXPECT_TRUE(session::live_verdict(s)->check.correct);
}

TEST(LiveExercise, AWeightWithinTheToleranceIsRightAnotherFormatIsANoteThatKeepsTheText) {
    session::AppState s = started();
    session::apply(s, act::Live{live::Go{1}});
    const int q = s.trace()->token_of(1, 1), key = s.trace()->token_of(2, 2);
    EXPECT_EQ(s.sel.pinned_key, key);
    const double truth = s.trace()->layers[0].heads[1].attn(q, key);
    session::apply(s, act::Live{live::Reveal{}});  // nothing typed
    EXPECT_FALSE(s.live_exercise.note.empty());
    session::apply(s, act::Live{live::Type{"about 0.2"}});
    session::apply(s, act::Live{live::Reveal{}});
    EXPECT_STREQ(session::live_phase_name(s), "answering");
    EXPECT_NE(s.live_exercise.note.find("is not a number"), std::string::npos);
    EXPECT_EQ(s.live_exercise.typed, "about 0.2");  // nothing lost
    session::apply(s, act::Live{live::Type{fixed(truth + 0.00009)}});
    session::apply(s, act::Live{live::Reveal{}});
    ASSERT_NE(session::live_verdict(s), nullptr);
    EXPECT_TRUE(session::live_verdict(s)->check.correct);
    EXPECT_NEAR(session::live_verdict(s)->answer.value, truth, 1e-9);
    session::apply(s, act::Live{live::Go{1}});
    session::apply(s, act::Live{live::Type{fixed(truth + 0.00011)}});  // just past the file's ±0.0001
    session::apply(s, act::Live{live::Reveal{}});
    ASSERT_NE(session::live_verdict(s), nullptr);
    EXPECT_FALSE(session::live_verdict(s)->check.correct);
    // As a percentage, as the page allows for a weight.
    session::apply(s, act::Live{live::Go{1}});
    session::apply(s, act::Live{live::Type{fixed(100 * truth) + "%"}});
    session::apply(s, act::Live{live::Reveal{}});
    ASSERT_NE(session::live_verdict(s), nullptr);
    EXPECT_TRUE(session::live_verdict(s)->check.correct);
}

TEST(LiveExercise, AScaledScoreIsQDotKOverRootDk) {
    session::AppState s = started();
    session::apply(s, act::Live{live::Go{2}});
    const auto& h = s.trace()->layers[1].heads[0];
    const int q = s.trace()->token_of(0, 2);
    const double truth = h.q.row(q).cast<double>().dot(h.k.row(0).cast<double>()) / 2.0;
    session::apply(s, act::Live{live::Type{fixed(truth - 0.02)}});  // outside ±0.01
    session::apply(s, act::Live{live::Reveal{}});
    ASSERT_NE(session::live_verdict(s), nullptr);
    EXPECT_FALSE(session::live_verdict(s)->check.correct);
    EXPECT_NEAR(session::live_verdict(s)->answer.value, truth, 1e-4);
}

TEST(LiveExercise, APredictedRegionPassesAtTwiceItsShare) {
    session::AppState s = started();
    session::apply(s, act::Live{live::Go{3}});
    const auto& attn = s.trace()->layers[0].heads[0].attn;
    const int q = s.trace()->token_of(1, 1);
    Eigen::Index best = 1;
    for (int j = 1; j < s.trace()->tokens; ++j)
        if (attn(q, j) > attn(q, best)) best = j;
    session::apply(s, act::Live{live::Mark{0}});  // CLS has no place on the photo
    EXPECT_TRUE(s.live_exercise.marked.empty());
    session::apply(s, act::Live{live::Mark{static_cast<int>(best)}});
    session::apply(s, act::Live{live::Reveal{}});
    const session::LiveVerdict* v = session::live_verdict(s);
    ASSERT_NE(v, nullptr);
    ASSERT_TRUE(v->check.region);
    double patches = 0;
    for (int j = 1; j < s.trace()->tokens; ++j) patches += attn(q, j);
    const double ratio = attn(q, best) / (patches / 9.0);
    EXPECT_NEAR(v->check.region->ratio, ratio, 1e-5);
    EXPECT_EQ(v->check.correct, ratio >= 2);
}

TEST(LiveExercise, AChoiceKeepsTheMapAndChecksTheTeachersOption) {
    session::AppState s = started();
    session::apply(s, act::Live{live::Go{4}});
    EXPECT_FALSE(session::live_exercise_hides_maps(s));
    session::apply(s, act::Live{live::Choose{3}});  // no third option
    EXPECT_TRUE(s.live_exercise.options.empty());
    session::apply(s, act::Live{live::Choose{1}});
    session::apply(s, act::Live{live::Reveal{}});
    ASSERT_NE(session::live_verdict(s), nullptr);
    EXPECT_FALSE(session::live_verdict(s)->check.correct);
    const nlohmann::json j = nlohmann::json::parse(session::state_json(s))["live_exercise"];
    EXPECT_EQ(j["phase"], "revealed");
    EXPECT_EQ(j["exercise"], 5);
    EXPECT_EQ(j["verdict"]["answer"]["options"], nlohmann::json::array({2}));
    EXPECT_EQ(j["given"]["options"], nlohmann::json::array({1}));
    EXPECT_EQ(j["verdict"]["correct"], false);
}

TEST(LiveExercise, EndsWithEndWithClassroomModeAndWithAnotherTour) {
    session::AppState s = started();
    session::apply(s, act::Live{live::End{}});
    EXPECT_FALSE(session::live_exercise_on(s));
    EXPECT_EQ(s.tour.tour, nullptr);
    s = started();
    session::apply(s, act::SetClassroom{false});
    EXPECT_FALSE(session::live_exercise_on(s));
    EXPECT_EQ(s.tour.tour, nullptr);  // no tour of exercises left behind as a tour
    s = started();
    auto other =
        std::make_shared<const session::Tour>(session::parse_tour("title: T\nstep: one\ntext: hi\n", "t.tour"));
    session::apply(s, act::StartTour{other});
    EXPECT_FALSE(session::live_exercise_on(s));
    EXPECT_STREQ(session::live_phase_name(s), "off");
}

TEST(LiveExercise, AFileThatCannotBeSetOnThisModelIsRefusedBeforeItStarts) {
    session::AppState s = vit::testing::state_with(vit::testing::synthetic_trace());
    const auto set = session::parse_exercises(
        "title: T\nexercise: far\nkind: top_key\nstate: layer=7 head=0 query=1,1\ntext: Which key?\n", "far.exercises");
    EXPECT_THROW(session::prepare_live_exercises(s, set), vit::Error);
    EXPECT_FALSE(session::live_exercise_on(s));
}

}  // namespace
