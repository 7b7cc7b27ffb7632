// Homework exercises (assets/exercises/*.exercises): questions whose answers
// the model computes on the photo, so one file works on any photo and every
// answer is checked against the truth, not against a number typed in advance.
//
// The format is a tour's (tour.h) with `exercise: TITLE` for `step:`: each
// exercise sets its layer, head, query and key through `state:` and
// `choose:` lines exactly as a tour step does (query=relevant, pin=top,
// choose: content_reach ...), and adds what the student answers:
//
//   title: First look: homework
//   photo: dog.jpg
//   other-query: relevant
//   exercise: The strongest key
//   kind: top_key                  which key does the query weigh most? (a click; CLS counts)
//   state: layer=3 head=2 query=5,3
//   text: Click the key that query {query} weighs most in layer {layer}, head {head}.
//
//   kind: weight                   the weight a_ij of the query and the pinned key (pin=...)
//   kind: score                    the raw score q·k of the query and the pinned key
//   kind: scaled_score             q·k / √dₖ of the query and the pinned key
//   kind: exp                      exp(q·k / √dₖ) of the query and the pinned key
//   kind: z                        Z, the sum of exp(q·k / √dₖ) over every key of the query's row
//   tolerance: 0.01                how far a typed number may be off (else the kind's default:
//   tolerance: 1%                  weight 0.001, score 0.1, scaled_score 0.01, exp and z 1%);
//                                  N% is relative to the answer. A tolerance that would accept
//                                  0 (as large as the answer itself) is refused on that photo.
//   kind: predict_region           mark where the query will look: passes when the
//   ratio: 2                       marked patches get ratio x their share of the patches
//   kind: choice                   a multiple-choice question, the teacher's answer:
//   option: Because ...            one line per option, in order
//   answer: 2                      the right option's number (1 = the first); several
//   answer: 1, 3                   right options: the student ticks exactly those
//
// `vary: head` (or layer, query, several) makes each student's variant of
// the exercise differ by a stated rule (variants.h): variant v (1 = the
// file's own) takes head h + v - 1 (mod the heads), layer l + v - 1 (mod the
// layers), the query v - 1 patches further in row-major order (wrapping),
// or v - 1 places down the relevance ranking where relevance chose it.
//
// `state: map=mean` asks about the mean of the layer's heads' weights (as
// the window's M): top_key, weight and predict_region take it; the kinds
// about one head's q·k (score, scaled_score, exp, z) refuse it.
//
// A question's text may not give its answer away: it may use only the
// placeholders that name the selection ({layer} {head} {query} {d_k} ...),
// {key} only with a pinned key, {score} (q·k) only for weight,
// scaled_score and exp. A placeholder with no value on the photo the exercises are
// set on ({query_rank} where the query was not chosen by relevance, {top1}
// on a model without a classifier) is an error naming the exercise: the
// question is never asked without its number. Options are shown as
// written: a placeholder in one is refused.
//
// Every line, option: lines included, is at most the tour's 2,000 bytes.
// Each field is set once: the file's title:, photo:, other-query:,
// other-pin:, an exercise's kind:, answer:, tolerance:, ratio:, panel:,
// frame:, each state: key and its choose: and claim: (own-/other- set one
// photo's each); a second is refused naming its line and the first's.
// text: and option: lines add up. A tour step's lesson: is refused: an
// exercise is set on the photo it is given, by every command and the window.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "session/state/app_state.h"
#include "session/tour/tour.h"
#include "vit/forward/forward.h"

namespace session {

enum class ExerciseKind { TopKey, Weight, Score, ScaledScore, Exp, Z, PredictRegion, Choice };
const char* exercise_kind_name(ExerciseKind kind);
// The kinds answered with a typed number (weight, score, scaled_score, exp, z).
bool numeric_kind(ExerciseKind kind);
// The kinds about one pinned key (weight, score, scaled_score, exp).
bool pinned_key_kind(ExerciseKind kind);

struct Exercise {
    ExerciseKind kind = ExerciseKind::Choice;
    double tolerance = 0;              // the numeric kinds: absolute, or a fraction of the answer
    bool relative = false;             // tolerance: N% (tolerance holds N / 100)
    double ratio = 0;                  // predict_region: the pass mark
    std::vector<std::string> options;  // choice
    std::vector<int> answers;          // choice: the right options, 1-based, ascending
    bool vary_layer = false, vary_head = false, vary_query = false;  // vary: what each variant moves
};

// How far a typed answer may be from `answer`: the absolute tolerance, or
// the relative one times |answer|.
double tolerance_for(const Exercise& e, double answer);
// The tolerance as a teacher wrote it: "0.001", "1%".
std::string tolerance_text(const Exercise& e);
// The precision the tolerance asks for: "3 decimals" (absolute 0.001),
// "3 significant figures" (relative 1%), and the digits it takes.
struct Precision {
    bool significant = false;  // significant figures, else decimals
    int digits = 3;
};
Precision precision_of(const Exercise& e);
std::string precision_text(const Precision& p);
// `value` printed to `p` ("0.019", "1.23e+05" for 3 significant figures of 123456).
std::string format_to_precision(double value, const Precision& p);

struct ExerciseSet {
    std::shared_ptr<const Tour> tour;  // one step per exercise: its state and text
    std::vector<Exercise> exercises;
};

// Parses an exercises file; `name` prefixes the errors ("NAME:LINE: what"),
// with the line numbers of the file. Throws vit::Error.
ExerciseSet parse_exercises(const std::string& text, const std::string& name);
// Reads and parses the file (the tour's bounds, tour_limits.h). Throws vit::Error.
ExerciseSet read_exercises(const std::string& path);

// One exercise's answer on the open photo and model, as the answer key
// writes it: tokens as indices (0 = CLS), -1 where none applies.
struct ExerciseAnswer {
    int exercise = 0;  // 1-based, as in the key and the page
    ExerciseKind kind = ExerciseKind::Choice;
    int layer = -1, head = -1, query = -1, key = -1;
    bool mean = false;              // map=mean: the mean of the layer's heads (head is then -1)
    double value = 0;               // top_key: the key's weight; the numeric kinds: the answer
    std::vector<int> options;       // choice: the right options
    std::vector<std::string> text;  // the question's sentences, numbers filled in
};

// The weights the exercise asks about: its head's row, or with map=mean the
// mean of the layer's heads.
vit::Vec exercise_row(const vit::Trace& t, const ExerciseAnswer& a);

// Every exercise set up on `s` (a copy: the tour's state machinery picks the
// layer, head, query and key) and answered from its trace. Throws vit::Error
// naming the exercise when its layer, head, query or key is not on this
// model or photo.
std::vector<ExerciseAnswer> answer_exercises(AppState s, const ExerciseSet& set);

}  // namespace session
