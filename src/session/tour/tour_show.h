// A tour step's state: the layer, head, query, pin, tab and page it
// declares, set through the actions the mouse and keys emit. A step's whole
// state is the tour's start with every step up to it replayed, so a step
// looks the same reached by Next or by Back.
#pragma once
#include <string>

#include "session/state/app_state.h"

namespace session {

// What a step can set (tour.h's state keys), as it was when the tour started.
struct TourStart {
    AppState::Tab tab = AppState::Tab::Math;
    std::string question;
    int layer = 0, head = 0, query = 0, pinned_key = -1, math_step = 1;
    MapSource source = MapSource::Head;
    gfx::Normalization scale = gfx::Normalization::RowMax;
};
TourStart tour_start_of(const AppState& s);

// Sets what the tour's current step declares over the tour's start and the
// steps before it (from the last step at or before it that opens a lesson,
// over that lesson); open_lesson: also asks the window for the lesson the
// step starts from (tour.lesson_to_open).
void show_tour_step(AppState& s, bool open_lesson = true);

// The tour step's own state keys again, over a lesson the step opened
// (without asking for the lesson again).
void reapply_tour_step(AppState& s);

}  // namespace session
