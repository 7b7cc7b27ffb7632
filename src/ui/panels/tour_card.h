// The guided tour on screen: the step's card (title, sentences with their
// numbers from the trace, Back / Next / Exit) and a frame around the panel
// the step talks about. Keys while a tour is on: Right or Page Down for the
// next step, Left or Page Up for the one before, Esc to leave. On a first
// run (no tour offered yet) it offers the tour instead.
#pragma once
#include "ui/widgets/frame.h"
#include "ui/widgets/layout.h"

namespace ui {

// While a tour is on, its card sits under the widest panel the step does not
// talk about, and that panel gives up the card's height (as the card took it
// on the frame before): what the panel shows, its maps too, fits above the
// card instead of hiding under it. Changes nothing without a tour.
void dock_tour_card(const Frame& f, Layout& layout);
// layout: the panels before dock_tour_card took the card's room.
void tour_card(const Frame& f, const Layout& layout);

}  // namespace ui
