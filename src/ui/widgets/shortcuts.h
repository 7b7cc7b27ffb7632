// Keyboard shortcuts of the main window (listed in the help window). Ignored
// while a text field has the keyboard or a dialog is open.
#pragma once
#include "ui/widgets/frame.h"

namespace ui {

void shortcuts(const Frame& f);

}  // namespace ui
