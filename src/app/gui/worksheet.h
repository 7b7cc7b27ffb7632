// The printable worksheet of a homework (vitscope exercises IMAGE --key KEY.csv
// -o SHEET.html): one self-contained HTML page with each exercise's question,
// the photo with the query outlined and a patch grid to mark where the
// exercise needs it, a line or boxes for the answer, and no answer: a
// choice's options without the teacher's, no computed number or key.
#pragma once
#include <string>
#include <vector>

#include "session/homework/exercises.h"
#include "session/state/app_state.h"

namespace app {

std::string worksheet_html(const session::AppState& s, const session::ExerciseSet& set,
                           const std::vector<session::ExerciseAnswer>& answers);

}  // namespace app
