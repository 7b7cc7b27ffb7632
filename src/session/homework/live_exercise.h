// Classroom mode's live exercise, generalising predict-then-reveal: an
// exercises file (exercises.h) shown one exercise at a time on the open
// photo. Each exercise's layer, head, query and key are set by the tour
// machinery (the exercises' tour is the tour on show; see
// live_exercise_state.h), the map stays hidden while it would give the answer
// away, the class answers as the kind asks, and Reveal checks the answer
// against the answer key's (answer_exercises, on this photo) by the key's and
// the page's rules (exercise_check.h), then shows the right answer with the
// arithmetic from the model's numbers (vit::explain_step, as the math panel).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "session/homework/exercise_check.h"
#include "session/homework/exercises.h"
#include "session/state/app_state.h"

namespace session {

// The steps from q and k to one key's weight, as the math panel shows them.
struct KeyArithmetic {
    int query = -1, key = -1;
    int head_dim = 0, tokens = 0;
    double score = 0;  // q·k
    double sqrt_dk = 1;
    double scaled = 0;      // q·k / √dₖ
    double exp_scaled = 0;  // exp(scaled)
    double z = 0;           // Σ exp over every key
    double weight = 0;      // the model's float32 weight
};

// One row of the reveal's arithmetic as the panel prints it.
struct ArithmeticLine {
    std::string name, value, why;
};

struct LiveVerdict {
    int generation = -1;    // the trace it was checked on
    ExerciseAnswer answer;  // the model's, the answer key's row
    ExerciseVerdict check;
    std::string sentence;                     // the right answer in words, beside the class's
    std::optional<KeyArithmetic> arithmetic;  // top_key, weight, scaled_score: for the answer's key
    std::vector<ArithmeticLine> lines;        // that arithmetic as rows
};

// On: an exercises file is running in classroom mode and its tour is on show.
bool live_exercise_on(const AppState& s);
// The exercise on show, or null when off.
const Exercise* live_exercise_shown(const AppState& s);
// The verdict of the exercise on show, made on the trace on show; null otherwise.
const LiveVerdict* live_verdict(const AppState& s);
// Revealed only with a verdict on the trace on show (a new photo asks again).
bool live_revealed(const AppState& s);
// The maps would give the answer away: on, not yet revealed, not a choice.
bool live_exercise_hides_maps(const AppState& s);
// Reveal waits: the exercise's query is still being chosen (tour_query.h).
bool live_reveal_waits(const AppState& s);

// Before Start, on the window's thread: makes the photo's relevant-query
// choice now when the file needs it (kept in s.tour, as the tour keeps it),
// and answers every exercise on a copy, so a file that cannot be set on this
// model or photo is refused with the answer key's one line. Throws vit::Error.
void prepare_live_exercises(AppState& s, const ExerciseSet& set);

// The live actions (live_exercise_state.h); apply() hands act::Live here.
void apply_live(AppState& s, const LiveAction& a);

// "answering", "revealed" or "off".
const char* live_phase_name(const AppState& s);

}  // namespace session
