// Checking a class's answer to one exercise against the model's answer
// (exercises.h, the answer key's row), by the key's and the lesson page's
// rules: a typed number within the exercise's tolerance, read as the page
// reads it (web/lesson/lesson_math.js parseAnswerNumber); predict_region's
// ratio against its pass mark (vit::score_prediction, the page's
// scorePrediction); a choice's option against the teacher's.
//
// top_key: the page accepts near-ties because its q and k are 16-bit and the
// model's float32 order could differ (lesson_math.js topKeys). The window
// checks against the model's own float32 row, the key's: the key's answer
// counts, and so does any key with exactly its weight (a true tie).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "session/homework/exercises.h"
#include "vit/analysis/prediction.h"
#include "vit/forward/forward.h"

namespace session {

// A typed number: "0.25", ".25", "-1.5e-2" (or with U+2212 minus), "0,25" (a
// decimal comma), and where percent is allowed (a weight) "25%" = 0.25. Else
// error holds one sentence saying how to type it (the page's words).
struct TypedNumber {
    double value = 0;
    std::string error;
};
TypedNumber parse_answer_number(const std::string& text, bool percent);

// What the class answered; only the kind's field is read.
struct ExerciseResponse {
    int key = -1;             // top_key: a token, 0 = CLS
    std::vector<int> marked;  // predict_region: patch tokens
    std::string typed;        // the numeric kinds
    std::vector<int> options;  // choice: the options chosen, 1-based
};

struct ExerciseVerdict {
    std::string error;  // not checked: nothing given, or a number in another format (one line)
    bool correct = false;
    std::string given;          // the class's answer as shown: "(3, 4)", "CLS", "0.25", "5 patches", "option 2"
    double given_value = 0;     // the numeric kinds: the number read
    std::vector<int> accepted;  // top_key: the keys that count (the key's, and exact ties)
    std::optional<vit::PredictionScore> region;  // predict_region: the marks scored on the exercise's row
};

// The verdict on `r` for exercise `e`, whose answer on this trace is `a`
// (answer_exercises). Throws vit::Error when a's layer, head or query is not
// in the trace.
ExerciseVerdict check_exercise(const vit::Trace& t, const Exercise& e, const ExerciseAnswer& a,
                               const ExerciseResponse& r);

}  // namespace session
