// The window's question before an export replaces a file that exists:
// "Replace" redoes the export replacing it, "Keep it" leaves the file alone
// (cmd::AnswerReplace). Shown while AppState::replace_question names a path.
#pragma once
#include "ui/widgets/frame.h"

namespace ui {

void replace_dialog(const Frame& f);

}  // namespace ui
