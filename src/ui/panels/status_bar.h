// The bottom line: model, tokens, time of the last forward pass, frame time,
// the worker's progress, the last status message or error.
#pragma once
#include "ui/widgets/frame.h"

namespace ui {

// Draws a borderless window of `height` at the bottom of the display.
void status_bar(const Frame& f, float height);
float status_bar_height();

}  // namespace ui
