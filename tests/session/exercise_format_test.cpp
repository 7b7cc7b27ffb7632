// The exercises format's newer parts (issue 50, item 7), on the synthetic
// trace: a relative tolerance beside the absolute one, a tolerance that would
// accept 0 refused on the photo it does so on, the kinds score, exp and z
// recomputed here from q and k in double, map=mean as the mean of the heads'
// weights (and refused where there is no one q·k), a choice with several
// right options, and every refusal one line naming the file and what is missing.
// And grading a hand-in (session/homework/handin.h) without a browser: CSV as
// RFC 4180 reads it, FNV-1a against its published vectors, every kind's
// verdict recomputed from the answer and the key's row (never the hand-in's
// `correct`), and a code that no longer matches once a row is edited.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <type_traits>
#include <variant>

#include "session/homework/exercise_check.h"
#include "session/homework/exercises.h"
#include "session/homework/handin.h"
#include "session/dispatch/actions.h"
#include "session/homework/homework_room.h"
#include "session/homework/variants.h"
#include "session/homework/live_exercise.h"
#include "support/exercises_refusal.h"
#include "support/synthetic_session.h"
#include "support/synthetic_trace.h"
#include "vit/base/error.h"

namespace exercise_format_test {

constexpr const char* kHeader = "title: T\nphoto: dog.jpg\n";
// query=1,1 and pin=2,2 on the synthetic 3 x 3 grid with CLS first: tokens 5 and 9.
constexpr int kQuery = 5, kKey = 9;

using test_support::exercises_refusal;
std::string refusal(const std::string& text) { return exercises_refusal(text); }

std::string numeric(const std::string& kind, const std::string& extra = "") {
    return std::string(kHeader) + "exercise: N\nkind: " + kind + "\nstate: layer=1 head=0 query=1,1 pin=2,2" + extra +
           "\ntext: How much?\n";
}

std::vector<session::ExerciseAnswer> answers(const std::string& text) {
    const session::AppState s = vit::testing::state_with(vit::testing::synthetic_trace(), "photos/dog.jpg");
    return session::answer_exercises(s, session::parse_exercises(text, "f.exercises"));
}

// q·k of layer 1, head 0 in double from the trace's own q and k.
double score(const vit::Trace& t, int head, int query, int key) {
    const auto& h = t.layers[1].heads[static_cast<size_t>(head)];
    return h.q.row(query).cast<double>().dot(h.k.row(key).cast<double>());
}

TEST(ExerciseFormat, ARelativeToleranceIsTakenAndOneThatAcceptsZeroIsNot) {
    const auto set = session::parse_exercises(numeric("weight") + "tolerance: 5%\n", "f");
    EXPECT_TRUE(set.exercises[0].relative);
    EXPECT_DOUBLE_EQ(set.exercises[0].tolerance, 0.05);
    EXPECT_DOUBLE_EQ(session::tolerance_for(set.exercises[0], 0.4), 0.02);
    EXPECT_EQ(session::tolerance_text(set.exercises[0]), "5%");
    EXPECT_EQ(refusal(numeric("weight") + "tolerance: 100%\n"),
              "f.exercises:7: tolerance 100% would accept 0 (a relative tolerance is under 100%)");
    EXPECT_EQ(refusal(numeric("weight") + "tolerance: -0.1\n"),
              "f.exercises:7: tolerance '-0.1' is not a positive number");
    // An absolute tolerance as large as the answer marks 0 right: refused naming the file and exercise.
    try {
        answers(numeric("weight") + "tolerance: 1\n");
        ADD_FAILURE() << "a tolerance of 1 on a weight was taken";
    } catch (const vit::Error& e) {
        const std::string m = e.what();
        EXPECT_EQ(m.rfind("f.exercises: exercise 1 'N': tolerance 1 accepts 0: the answer on this photo is ", 0), 0u)
            << m;
        EXPECT_EQ(m.find('\n'), std::string::npos);
    }
}

TEST(ExerciseFormat, ScoreExpAndZAreTheModelsNumbers) {
    const vit::Trace t = vit::testing::synthetic_trace();
    const double s = score(t, 0, kQuery, kKey), scaled = s / 2;  // √dₖ = 2
    double z = 0;
    for (int j = 0; j < vit::testing::kTokens; ++j) z += std::exp(score(t, 0, kQuery, j) / 2);
    const auto a = answers(std::string(kHeader) +
                           "exercise: S\nkind: score\nstate: layer=1 head=0 query=1,1 pin=2,2\ntext: q·k?\n"
                           "exercise: E\nkind: exp\nstate: layer=1 head=0 query=1,1 pin=2,2\ntext: exp?\n"
                           "exercise: Z\nkind: z\nstate: layer=1 head=0 query=1,1 pin=none\ntext: Z?\n");
    ASSERT_EQ(a.size(), 3u);
    EXPECT_NEAR(a[0].value, s, 1e-4 * std::max(1.0, std::abs(s)));
    EXPECT_NEAR(a[1].value, std::exp(scaled), 1e-4 * std::exp(scaled));
    EXPECT_NEAR(a[2].value, z, 1e-4 * z);
    // exp and z take a relative tolerance by default (they span powers of ten), score an absolute one.
    const auto set = session::parse_exercises(numeric("exp") +
                                                  "exercise: S\nkind: score\n"
                                                  "state: layer=1 head=0 query=1,1 pin=2,2\ntext: ?\n",
                                              "f");
    EXPECT_TRUE(set.exercises[0].relative);
    EXPECT_FALSE(set.exercises[1].relative);
    // {score} would give a score exercise away.
    EXPECT_EQ(refusal(std::string(kHeader) + "exercise: S\nkind: score\nstate: layer=1 head=0 query=1,1 pin=2,2\n"
                                             "text: It is {score}.\n"),
              "f.exercises:3: exercise 'S': {score} would give the answer away (or is not a number a question may "
              "show)");
}

TEST(ExerciseFormat, MapMeanIsTheMeanOfTheHeadsOrRefused) {
    const vit::Trace t = vit::testing::synthetic_trace();
    const auto a = answers(numeric("weight", " map=mean"));
    ASSERT_EQ(a.size(), 1u);
    EXPECT_TRUE(a[0].mean);
    const double mean = (t.layers[1].heads[0].attn(kQuery, kKey) + t.layers[1].heads[1].attn(kQuery, kKey)) / 2;
    EXPECT_NEAR(a[0].value, mean, 1e-6);
    EXPECT_NE(std::abs(a[0].value - t.layers[1].heads[0].attn(kQuery, kKey)), 0);  // not head 0's alone
    EXPECT_EQ(refusal(numeric("scaled_score", " map=mean")),
              "f.exercises:3: exercise 'N': map=mean has no q·k of its own: scaled_score needs one head (map=head, "
              "head=H)");
    // top_key on the mean: the mean row's argmax.
    const auto top =
        answers(std::string(kHeader) +
                "exercise: T\nkind: top_key\nstate: layer=1 head=0 query=1,1 pin=none map=mean\ntext: ?\n");
    Eigen::VectorXd m =
        (t.layers[1].heads[0].attn.row(kQuery) + t.layers[1].heads[1].attn.row(kQuery)).cast<double>().transpose() / 2;
    Eigen::Index best = 0;
    m.maxCoeff(&best);
    EXPECT_EQ(top[0].key, static_cast<int>(best));
}

TEST(ExerciseFormat, AChoiceWithSeveralRightOptions) {
    const std::string three = std::string(kHeader) +
                              "exercise: C\nkind: choice\ntext: Which?\n"
                              "option: a\noption: b\noption: c\n";
    const auto set = session::parse_exercises(three + "answer: 3, 1\n", "f");
    EXPECT_EQ(set.exercises[0].answers, (std::vector<int>{1, 3}));
    EXPECT_EQ(refusal(three),
              "f.exercises:3: exercise 'C': no answer: (the right option's number, 1 to 3; several: "
              "answer: 1, 3)");
    EXPECT_EQ(refusal(three + "answer: 4\n"),
              "f.exercises:3: exercise 'C': answer: names option 4, but the options are 1 to 3");
    EXPECT_EQ(refusal(three + "answer: 1, 1\n"), "f.exercises:9: answer: names option 1 twice");
    EXPECT_EQ(refusal(three + "answer: one\n"),
              "f.exercises:9: answer 'one' is not an option's number (or several: answer: 1, 3)");
    // Right only when exactly the right options are chosen.
    const vit::Trace t = vit::testing::synthetic_trace();
    session::ExerciseAnswer a;
    a.kind = session::ExerciseKind::Choice;
    a.options = {1, 3};
    session::ExerciseResponse r;
    r.options = {3, 1};
    EXPECT_TRUE(session::check_exercise(t, set.exercises[0], a, r).correct);
    r.options = {1};
    EXPECT_FALSE(session::check_exercise(t, set.exercises[0], a, r).correct);
    r.options = {1, 2, 3};
    EXPECT_FALSE(session::check_exercise(t, set.exercises[0], a, r).correct);
    EXPECT_EQ(session::check_exercise(t, set.exercises[0], a, r).given, "options 1 and 2 and 3");
}

TEST(ExerciseFormat, TheTourParsersErrorsSpeakOfExercisesAndTheFilesPhoto) {
    // A line every photo sees naming what the file's photo shows; a step with no text; no exercise at all.
    EXPECT_EQ(refusal("title: T\nphoto: dog.jpg\nwords: dog\nexercise: E\nkind: choice\ntext: The dog?\n"
                      "option: a\noption: b\nanswer: 1\n"),
              "f.exercises:6: 'dog' names what the file's own photo shows, in a line other photos see (use own-)");
    EXPECT_EQ(refusal("title: T\nphoto: dog.jpg\nexercise: E\nkind: choice\noption: a\noption: b\nanswer: 1\n"),
              "f.exercises:3: exercise 'E' has no text:");
    EXPECT_EQ(refusal("title: T\nphoto: dog.jpg\n"), "f.exercises:2: no exercises (each starts with exercise: TITLE)");
}

TEST(ExerciseFormat, TheWindowTakesAZAndSeveralOptionsAsTheScriptAnswersThem) {
    session::AppState s = vit::testing::state_with(vit::testing::synthetic_trace(), "photos/dog.jpg");
    auto set = std::make_shared<const session::ExerciseSet>(
        session::parse_exercises(std::string(kHeader) +
                                     "exercise: Z\nkind: z\nstate: layer=1 head=0 query=1,1 pin=none\ntext: Z?\n"
                                     "exercise: C\nkind: choice\ntext: Which?\noption: a\noption: b\noption: c\n"
                                     "answer: 1, 3\n",
                                 "f.exercises"));
    session::prepare_live_exercises(s, *set);
    session::apply(s, session::act::Live{session::live::Start{set, "f.exercises"}});
    auto answer = [&](const std::string& arg) {
        for (const auto& v : session::homework_verbs()) {
            if (v.name != "answer") continue;
            std::vector<session::HomeworkRequest> out;
            v.run({"answer", arg, "t:1"}, s, out);
            for (const auto& r : out)
                std::visit(
                    [&](const auto& x) {
                        if constexpr (std::is_same_v<std::decay_t<decltype(x)>, session::act::Live>)
                            session::apply(s, x);
                    },
                    r);
        }
    };
    answer("12.5");
    EXPECT_EQ(s.live_exercise.typed, "12.5");  // a z is typed, as a weight is
    session::apply(s, session::act::Live{session::live::Go{1}});
    answer("3");
    answer("1");
    answer("2");
    answer("2");  // again: unticked
    EXPECT_EQ(s.live_exercise.options, (std::vector<int>{1, 3}));
    session::apply(s, session::act::Live{session::live::Reveal{}});
    ASSERT_NE(session::live_verdict(s), nullptr);
    EXPECT_TRUE(session::live_verdict(s)->check.correct);
}

TEST(ExerciseFormat, AVariantMovesWhatVarySaysByTheStatedRule) {
    const vit::Trace t = vit::testing::synthetic_trace();
    const auto set = session::parse_exercises(
        std::string(kHeader) +
            "exercise: T\nkind: top_key\nstate: layer=1 head=0 query=1,1 pin=none\nvary: head query\n"
            "text: ?\nexercise: W\nkind: weight\nstate: layer=0 head=1 query=1,1 pin=2,2\n"
            "tolerance: 5%\ntext: ?\n",
        "f.exercises");
    const auto base = answers(std::string(kHeader) +
                              "exercise: T\nkind: top_key\nstate: layer=1 head=0 query=1,1 pin=none\ntext: ?\n"
                              "exercise: W\nkind: weight\nstate: layer=0 head=1 query=1,1 pin=2,2\n"
                              "tolerance: 5%\ntext: ?\n");
    const session::AppState s = vit::testing::state_with(t, "photos/dog.jpg");
    // Variant 3: head 0 + 2 (of 2 heads: 0), the query (1, 1) = token 5 two patches on: token 7.
    const auto v3 = session::answer_exercises(s, session::exercise_variant(set, base, t, 3));
    EXPECT_EQ(v3[0].head, 0);
    EXPECT_EQ(v3[0].query, 7);
    EXPECT_EQ(v3[1].head, 1);  // no vary: line, as the file sets it
    EXPECT_EQ(v3[1].key, base[1].key);
    const auto v2 = session::answer_exercises(s, session::exercise_variant(set, base, t, 2));
    EXPECT_EQ(v2[0].head, 1);
    EXPECT_EQ(v2[0].query, 6);
    // A query chosen by relevance follows the ranking instead: 5 ranked second after 8 -> 2 then 8.
    vit::RelevantQueryChoice r;
    r.query.token = 5;
    r.query.relevant = {8, 5, 2};
    EXPECT_EQ(session::answer_exercises(s, session::exercise_variant(set, base, t, 2, &r))[0].query, 2);
    EXPECT_EQ(session::answer_exercises(s, session::exercise_variant(set, base, t, 3, &r))[0].query, 8);
}

TEST(ExerciseFormat, ARelativeToleranceChecksAgainstTheAnswersSize) {
    const auto set = session::parse_exercises(numeric("weight") + "tolerance: 5%\n", "f");
    const vit::Trace t = vit::testing::synthetic_trace();
    session::ExerciseAnswer a;
    a.kind = session::ExerciseKind::Weight;
    a.value = 0.2;
    session::ExerciseResponse r;
    r.typed = "0.209";
    EXPECT_TRUE(session::check_exercise(t, set.exercises[0], a, r).correct);
    r.typed = "21.1%";
    EXPECT_FALSE(session::check_exercise(t, set.exercises[0], a, r).correct);
}

TEST(ExerciseFormat, ThePrecisionATolerancAsksFor) {
    session::Exercise e;
    e.tolerance = 0.001;
    EXPECT_EQ(session::precision_text(session::precision_of(e)), "3 decimals");
    EXPECT_EQ(session::format_to_precision(0.028999999999999998, session::precision_of(e)), "0.029");
    e.tolerance = 0.01, e.relative = true;
    EXPECT_EQ(session::precision_text(session::precision_of(e)), "3 significant figures");
    EXPECT_EQ(session::format_to_precision(1234.5678, session::precision_of(e)), "1230");
    e.tolerance = 0.1, e.relative = false;
    EXPECT_EQ(session::precision_text(session::precision_of(e)), "1 decimal");
}

}  // namespace exercise_format_test

namespace handin_test {

session::KeyRow key_row(const std::string& kind, const std::string& answer, const std::string& accepted,
                        const std::string& tolerance, const std::string& weights = "") {
    session::KeyRow k;
    k.kind = kind, k.answer = answer, k.accepted = accepted, k.tolerance = tolerance, k.weights = weights;
    return k;
}

TEST(Handin, CsvFieldsQuotedAsRfc4180Says) {
    const auto rows = session::parse_csv("a,\"b, c\",\"d \"\"e\"\"\"\r\n1,,\"two\nlines\"\n", "t.csv");
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0], (std::vector<std::string>{"a", "b, c", "d \"e\""}));
    EXPECT_EQ(rows[1], (std::vector<std::string>{"1", "", "two\nlines"}));
    EXPECT_THROW(session::parse_csv("a,\"b\n", "t.csv"), vit::Error);
}

TEST(Handin, Fnv1aIsThePublishedOne) {
    EXPECT_EQ(session::fnv1a_hex(""), "811c9dc5");
    EXPECT_EQ(session::fnv1a_hex("a"), "e40c292c");
    EXPECT_EQ(session::fnv1a_hex("foobar"), "bf9cf968");
}

TEST(Handin, VerdictsComeFromTheAnswersAndTheKey) {
    const session::KeyRow top = key_row("top_key", "88", "88 104", "");
    EXPECT_TRUE(session::answer_is_right(top, "104"));  // a near-tie the key accepts
    EXPECT_FALSE(session::answer_is_right(top, "87"));
    EXPECT_FALSE(session::answer_is_right(top, ""));
    const session::KeyRow weight = key_row("weight", "0.0019", "0.00186 0.00194", "2%");
    EXPECT_TRUE(session::answer_is_right(weight, "0.19%"));  // read as the page reads it
    EXPECT_TRUE(session::answer_is_right(weight, "0,0019"));
    EXPECT_FALSE(session::answer_is_right(weight, "0.0021"));
    EXPECT_FALSE(session::answer_is_right(weight, "about 0.002"));
    const session::KeyRow choice = key_row("choice", "2 4", "2 4", "");
    EXPECT_TRUE(session::answer_is_right(choice, "4 2"));
    EXPECT_FALSE(session::answer_is_right(choice, "2"));
    // A region on a 2 x 2 grid after CLS: the query is token 1 at (0, 0); weights 0.5 0.3 0.1 0.1.
    session::KeyRow region = key_row("predict_region", "", "", "2", "0.5 0.3 0.1 0.1");
    region.query = 1, region.query_patch = "(0, 0)";
    EXPECT_TRUE(session::answer_is_right(region, "1"));     // 0.5 on a quarter of the patches: 2 x an even spread
    EXPECT_FALSE(session::answer_is_right(region, "1 2"));  // 0.8 on half: 1.6 x
}

TEST(Handin, AnEditedRowNoLongerMatchesItsCode) {
    const std::string header = "student,variant,exercise,kind,answer,correct,code\n";
    session::Handin h = session::parse_handin(header + "Zoë,1,1,weight,0.25,no,x\n", "h.csv");
    const std::string code = session::handin_code(h);
    session::Handin good = session::parse_handin(header + "Zoë,1,1,weight,0.25,no," + code + "\n", "h.csv");
    EXPECT_EQ(session::handin_code(good), good.code);
    session::Handin edited = session::parse_handin(header + "Zoë,1,1,weight,0.25,yes," + code + "\n", "h.csv");
    EXPECT_NE(session::handin_code(edited), edited.code);
    // A row whose student differs from the first's is not one student's hand-in.
    EXPECT_THROW(session::parse_handin(header + "A,1,1,weight,1,no,c\nB,1,2,weight,1,no,c\n", "h.csv"), vit::Error);
    // Graded from the answer: the key's interval, whatever `correct` says.
    std::map<std::pair<std::string, int>, session::KeyRow> key;
    key[{"1", 1}] = key_row("weight", "0.25", "0.249 0.251", "0.001", "");
    const session::Grade g = session::grade_handin(edited, key);
    EXPECT_FALSE(g.code_ok);
    EXPECT_EQ(g.marks, std::vector<int>{1});
}

}  // namespace handin_test
