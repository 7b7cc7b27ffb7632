#include "session/dispatch/reactions.h"

#include "session/homework/live_exercise.h"

namespace session {

void react_before(AppState& s, const act::SetClassroom& x) {
    fold_tour_for_classroom(s, x.on);  // the projector's card: its key sentence (compares with the old mode)
}

void react_after(AppState& s, const act::SetClassroom& x) {
    if (x.on) return;
    apply_classroom(s, act::EndPredict{});  // predicting is classroom mode's; leaving it shows the maps again
    apply_live(s, live::End{});             // so is the live exercise (its tour ends too)
}

void react_after(AppState& s, const act::ShowGetModel& x) {
    if (x.show) s.browser.mode = BrowserState::Mode::Closed;  // one dialog at a time
}

}  // namespace session
