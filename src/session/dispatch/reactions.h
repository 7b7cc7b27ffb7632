// What a room does when an action of a room below it changes something it
// depends on (a room's reducer never reaches up): classroom mode turned off
// ends predicting and the live exercise, and folds or unfolds the tour's
// card; the Get a model… dialog closes the file browser. Each runs around
// the owning room's reducer (apply, actions.cpp); any other action has none.
#pragma once
#include "session/dispatch/rooms_all.h"

namespace session {

template <class X>
void react_before(AppState&, const X&) {}
template <class X>
void react_after(AppState&, const X&) {}

void react_before(AppState& s, const act::SetClassroom& x);
void react_after(AppState& s, const act::SetClassroom& x);
void react_after(AppState& s, const act::ShowGetModel& x);

}  // namespace session
