// A tour step's state: the layer, head, query, pin, tab and page it
// declares, set through the actions the mouse and keys emit.
#pragma once
#include "session/state/app_state.h"

namespace session {

// Sets what the tour's current step declares; open_lesson: also asks the
// window for the lesson the step starts from (tour.lesson_to_open).
void show_tour_step(AppState& s, bool open_lesson = true);

// The tour step's own state keys again, over a lesson the step opened
// (without asking for the lesson again).
void reapply_tour_step(AppState& s);

}  // namespace session
