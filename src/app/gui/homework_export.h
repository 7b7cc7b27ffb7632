// File > Export homework: the homework that ships (assets/exercises) set on
// the open photo, as a new folder a teacher hands out and keeps:
//   homework.html    the lesson page with the exercises (students check their answers there)
//   worksheet.html   the printable questions, no answers
//   answer_key.csv   the model's answers (vitscope exercises --key writes the same)
#pragma once
#include <string>

#include "session/state/app_state.h"
#include "vit/base/output_file.h"

namespace app {

// Throws vit::Error (nothing written) when the exercises cannot be set on
// this photo or the folder cannot be made under `rules`.
void write_homework(const session::AppState& s, const std::string& dir, const vit::OutputRules& rules);

}  // namespace app
