// One variant of a homework per student (vitscope lesson --students / --variants,
// issue 50 item 3): variant 1 is the exercises as the file sets them on the
// photo; variant v moves each exercise with a `vary:` line by the stated rule
// (exercises.h): head h + v - 1 and layer l + v - 1 (each modulo the model's),
// the query v - 1 patches further in row-major order (wrapping over the grid)
// or, where the file's own query was chosen by relevance (query=relevant,
// other-query: relevant), the patch v - 1 places further down the relevance
// ranking of the top quarter (vit::RelevantQuery::relevant, wrapping).
// Everything else is the file's own answer on the photo, fixed: the pinned
// key stays the key the file's rule chose (pin=top: the top key of variant 1),
// so a question names the same key in every variant.
#pragma once
#include <string>
#include <vector>

#include "session/homework/exercises.h"
#include "vit/analysis/relevant_query.h"

namespace session {

// The exercises of `variant` (1-based), resolved on the trace `base` was
// answered on (answer_exercises of the file's own set). A variant's tour
// sets every exercise's layer, head, query and key explicitly. `relevant`:
// the relevance choice made on this photo (tour_query.h), or null.
ExerciseSet exercise_variant(const ExerciseSet& set, const std::vector<ExerciseAnswer>& base, const vit::Trace& t,
                             int variant, const vit::RelevantQueryChoice* relevant = nullptr);

// The students of a roster CSV: the column `name` (or `student`), in order;
// throws vit::Error naming the file when it has neither or no student, or a
// name twice.
std::vector<std::string> read_roster(const std::string& text, const std::string& path);

}  // namespace session
