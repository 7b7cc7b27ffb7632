// Classroom mode's live exercise (File > Exercises…): one exercise of an
// exercises file at a time on the open photo, answered by the class, then
// revealed. The homework room's state (HomeworkRoom, one of AppState's rooms)
// and the actions that change it; the logic is in live_exercise.h.
//
// The exercise's layer, head, query and key are set by the tour machinery:
// the exercises' own tour (ExerciseSet::tour) is the tour on show, its step
// the exercise, so query=relevant, choose: and pin=top work as in a tour and
// as in the answer key. The live exercise is on while that tour is on show in
// classroom mode (live_exercise_on): starting another tour ends it.
#pragma once
#include <array>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace session {

struct ExerciseSet;
struct LiveVerdict;

struct LiveExercise {
    enum class Phase { Answering, Revealed };
    std::shared_ptr<const ExerciseSet> set;  // null: none was opened
    std::string path;                        // the file it was read from
    int index = 0;                           // the exercise on show, 0-based
    Phase phase = Phase::Answering;
    // The class's answer so far; each exercise starts with none.
    int picked = -1;                             // top_key: the key clicked (a token; 0 = CLS); -1 none
    std::vector<int> marked;                     // predict_region: patch tokens, in the order marked
    std::string typed;                           // the numeric kinds: the text as typed
    std::vector<int> options;                    // choice: the options chosen, 1-based, ascending; none yet
    std::string note;                            // why Reveal did not check (nothing given, another format): one line
    std::shared_ptr<const LiveVerdict> verdict;  // once revealed: the check, the right answer, the arithmetic
};

// The live exercise's actions (act::Live carries one).
namespace live {
struct Start {
    std::shared_ptr<const ExerciseSet> set;
    std::string path;
};  // its first exercise; classroom mode on
struct Go {
    int index;
};  // another exercise (clamped): its state, no answer yet
struct Pick {
    int token;
};  // top_key: the key the class chose
struct Mark {
    int token;
};  // predict_region: marks a patch, or unmarks it
struct Type {
    std::string text;
};  // the numeric kinds: the text typed so far
struct Choose {
    int option;
};                 // choice: 1-based (with several right options, ticks or unticks it)
struct Reveal {};  // checks the answer; a missing or misformatted one is a note instead
struct End {};     // back to the explorer (the tour of exercises ends too)
}  // namespace live

using LiveAction =
    std::variant<live::Start, live::Go, live::Pick, live::Mark, live::Type, live::Choose, live::Reveal, live::End>;

struct HomeworkRoom {
    // Classroom mode's live exercise (File > Exercises…; live_exercise.h).
    LiveExercise live_exercise;
};

}  // namespace session
