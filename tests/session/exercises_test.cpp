// The exercises format (session/homework/exercises.h) at its edges: every line, an
// exercise's own option: lines included, within the tour's line limit; each
// field set once (a second is refused naming its line and the first's);
// lesson: refused the same way wherever a file is read, without opening the
// lesson; and a question whose placeholder has no value on the photo refused
// naming the exercise and the placeholder, not asked without its number.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "session/homework/exercises.h"
#include "session/tour/tour_limits.h"
#include "support/exercises_refusal.h"
#include "support/synthetic_session.h"
#include "support/synthetic_trace.h"
#include "vit/base/error.h"

// A named namespace: the unity build compiles this file beside the others (tour_test.cpp has a kHeader).
namespace exercises_test {

constexpr const char* kHeader = "title: T\nphoto: dog.jpg\n";
constexpr const char* kChoice = "exercise: E\nkind: choice\ntext: Which?\noption: a\noption: b\nanswer: 2\n";
constexpr const char* kWeight =
    "exercise: W\nkind: weight\nstate: layer=1 head=1 query=1,1 pin=2,2\ntext: The weight?\n";

using test_support::exercises_refusal;
std::string refusal(const std::string& text) { return exercises_refusal(text); }

TEST(Exercises, TheSampleFilesParse) {
    EXPECT_EQ(refusal(std::string(kHeader) + kChoice + kWeight), "");
    const auto set = session::read_exercises(VITSCOPE_SOURCE_DIR "/assets/exercises/first-look.exercises");
    EXPECT_GE(set.exercises.size(), 8u);
}

TEST(Exercises, OptionAndEveryOtherLineKeepTheLineLimit) {
    const std::string long_text(session::tour_limits::kLineBytes, 'x');  // "option: " makes it over the limit
    const std::string over = std::to_string(long_text.size() + 8) + " bytes, over the 2000-byte limit";
    // option: is the exercise's own line (blanked for the tour parser), as are kind:, answer:, tolerance:, ratio:.
    EXPECT_EQ(refusal(std::string(kHeader) + "exercise: E\nkind: choice\ntext: Which?\noption: " + long_text +
                      "\noption: b\nanswer: 2\n"),
              "f.exercises:6: the line is " + over);
    EXPECT_EQ(refusal(std::string(kHeader) +
                      "exercise: E\nkind: choice\ntext: Which?\noption: a\noption: b\nanswer: " + long_text + "\n"),
              "f.exercises:8: the line is " + over);
    // A line at the limit is taken.
    const std::string at_limit(session::tour_limits::kLineBytes - 8, 'y');
    EXPECT_EQ(refusal(std::string(kHeader) + "exercise: E\nkind: choice\ntext: Which?\noption: " + at_limit +
                      "\noption: b\nanswer: 2\n"),
              "");
}

TEST(Exercises, ASecondAnswerOrToleranceOrAnyFieldIsRefusedNamingBothLines) {
    const std::string header(kHeader);
    // A choice's answer: given twice (lines 8 and 9): the second used to win.
    EXPECT_EQ(refusal(header + kChoice + "answer: 1\n"),
              "f.exercises:9: a second answer: in exercise 'E' (line 8 sets it already)");
    EXPECT_EQ(refusal(header + kWeight + "tolerance: 0.5\ntolerance: 0.01\n"),
              "f.exercises:8: a second tolerance: in exercise 'W' (line 7 sets it already)");
    EXPECT_EQ(refusal(header + kWeight + "kind: scaled_score\n"),
              "f.exercises:7: a second kind: in exercise 'W' (line 4 sets it already)");
    EXPECT_EQ(refusal(header +
                      "exercise: R\nkind: predict_region\nstate: layer=0 head=0 query=1,1\nratio: 2\nratio: 3\n"
                      "text: Mark it.\n"),
              "f.exercises:7: a second ratio: in exercise 'R' (line 6 sets it already)");
    // A state key set on two state: lines, or twice on one.
    EXPECT_EQ(refusal(header + kWeight + "state: layer=0\n"),
              "f.exercises:7: a second layer= (state:) in exercise 'W' (line 5 sets it already)");
    EXPECT_EQ(refusal(header + "exercise: W\nkind: weight\nstate: layer=1 head=1 query=1,1 pin=2,2 head=0\ntext: ?\n"),
              "f.exercises:5: a second head= (state:) in exercise 'W' (line 5 sets it already)");
    // choose: sets both photos' choice; own-choose: after it sets the own photo's again.
    EXPECT_EQ(
        refusal(header + "exercise: R\nkind: predict_region\nstate: query=1,1\nchoose: selective_reach\n"
                         "own-choose: selective_reach\ntext: Mark it.\n"),
        "f.exercises:7: a second own-choose: (for the file's own photo) in exercise 'R' (line 6 sets it already)");
    EXPECT_EQ(refusal(header + "exercise: P\nkind: choice\npanel: photo\npanel: heads\ntext: ?\noption: a\noption: b\n"
                               "answer: 1\n"),
              "f.exercises:6: a second panel: in exercise 'P' (line 5 sets it already)");
    // The file's own fields, before the first exercise.
    EXPECT_EQ(refusal(header + "photo: cat.jpg\n" + kChoice),
              "f.exercises:3: a second photo: (line 2 sets it already)");
    EXPECT_EQ(refusal("title: T\ntitle: U\n" + std::string(kChoice)),
              "f.exercises:2: a second title: (line 1 sets it already)");
    // What adds up is taken: several text: and option: lines, own- and other- choices, one field per exercise.
    EXPECT_EQ(refusal(header +
                      "exercise: R\nkind: predict_region\nstate: query=1,1\nown-choose: selective_reach\n"
                      "other-choose: selective_reach\ntext: Mark it.\ntext: Then look.\n" +
                      kChoice + kWeight),
              "");
}

TEST(Exercises, ALessonLineIsRefusedWithoutReadingTheLesson) {
    // The window used to open the lesson (and quote its first bytes when it was not one); the command ignored it.
    const std::string message = refusal(std::string(kHeader) + kChoice + "lesson: /etc/passwd\n");
    EXPECT_EQ(message,
              "f.exercises:9: an exercises file takes no lesson: (each exercise is set on the photo it is given, "
              "by its state: and choose: lines)");
    // Read from a file, as every command and the window read one: the same line, whatever the lesson is.
    const auto path = std::filesystem::temp_directory_path() / "vitscope_exercises_lesson.exercises";
    std::ofstream(path) << kHeader << "exercise: E\nlesson: saved.vitscope\nkind: choice\ntext: Which?\noption: a\n"
                        << "option: b\nanswer: 1\n";
    try {
        session::read_exercises(path.string());
        ADD_FAILURE() << "lesson: was taken";
    } catch (const vit::Error& e) {
        EXPECT_EQ(std::string(e.what()), path.string() +
                                             ":4: an exercises file takes no lesson: (each exercise is set on "
                                             "the photo it is given, by its state: and choose: lines)");
    }
    std::filesystem::remove(path);
}

TEST(Exercises, APlaceholderWithNoValueOnThePhotoIsRefusedNamingItAndTheExercise) {
    // On the file's own photo with a fixed query, no query was chosen by relevance, so {query_rank}
    // has no value: the question used to be left without its text ("1. E" on the worksheet).
    const std::string text = std::string("title: T\nphoto: dog.jpg\nother-query: relevant\n") + kChoice +
                             "exercise: Rank\nkind: top_key\nstate: layer=1 head=1 query=1,1 pin=none\n"
                             "text: Query {query} ranks {query_rank} by relevance. Which key does it weigh most?\n";
    const session::ExerciseSet set = session::parse_exercises(text, "rank.exercises");
    const session::AppState s = vit::testing::state_with(vit::testing::synthetic_trace(), "photos/dog.jpg");
    try {
        session::answer_exercises(s, set);
        ADD_FAILURE() << "{query_rank} was taken without a value";
    } catch (const vit::Error& e) {
        EXPECT_EQ(
            std::string(e.what()),
            "rank.exercises: exercise 2 'Rank': {query_rank} has no value on this photo (it reads the relevance the "
            "query was chosen by: state: query=relevant on a model with a classifier)");
    }
    // The model's answer, where there is no classifier (this trace has none): named the same way.
    const session::ExerciseSet top1 = session::parse_exercises(
        std::string(kHeader) +
            "exercise: Class\nkind: choice\ntext: The model says {top1}. Why?\noption: a\noption: b\n"
            "answer: 1\n",
        "top1.exercises");
    try {
        session::answer_exercises(s, top1);
        ADD_FAILURE() << "{top1} was taken without a value";
    } catch (const vit::Error& e) {
        EXPECT_EQ(std::string(e.what()),
                  "top1.exercises: exercise 1 'Class': {top1} has no value on this photo (the model "
                  "has no classifier)");
    }
    // An option is shown as written, so a placeholder in one would reach the class unfilled.
    EXPECT_EQ(refusal(std::string(kHeader) +
                      "exercise: O\nkind: choice\ntext: Which?\noption: layer {layer}\noption: b\n"
                      "answer: 1\n"),
              "f.exercises:3: exercise 'O': option 1 uses {layer}, which an option does not fill (options are shown as "
              "written)");
    EXPECT_EQ(refusal(std::string(kHeader) +
                      "exercise: O\nkind: choice\ntext: Which?\noption: the set {a, b}\noption: b\n"
                      "answer: 1\n"),
              "");
    // Every placeholder that fills is taken.
    EXPECT_EQ(session::answer_exercises(
                  s, session::parse_exercises(std::string(kHeader) + kChoice + kWeight + "tolerance: 5%\n", "ok"))
                  .size(),
              2u);
}

}  // namespace exercises_test
