// Help > Mouse and keyboard (F1): every way to drive the window.
#pragma once
#include "ui/widgets/frame.h"

namespace ui {

void help_window(const Frame& f);

}  // namespace ui
