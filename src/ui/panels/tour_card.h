// The guided tour on screen: the step's card (title, sentences with their
// numbers from the trace, Back / Next / Exit) and a frame around the panel
// the step talks about. Keys while a tour is on: Right or Page Down for the
// next step, Left or Page Up for the one before, Esc to leave. On a first
// run (no tour offered yet) it offers the tour instead.
#pragma once
#include "ui/widgets/frame.h"
#include "ui/widgets/layout.h"

namespace ui {

void tour_card(const Frame& f, const Layout& layout);

}  // namespace ui
