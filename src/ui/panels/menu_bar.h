// The main menu: File (open, export, quit), View (map style, which map), Help.
#pragma once
#include "ui/widgets/frame.h"

namespace ui {

// Returns the menu bar's height.
float menu_bar(const Frame& f);

}  // namespace ui
