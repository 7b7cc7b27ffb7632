// What panels, keys and scripts ask of the state: Action is every room's
// actions joined (state/rooms.h), and apply() hands each to the one room
// whose reducer owns it, visited exhaustively (an action no room owns does
// not compile). What needs the window (files, the worker, exports) is a
// Command (requests.h) instead.
#pragma once
#include "session/dispatch/rooms_all.h"

namespace session {

#define VITSCOPE_ROOM_ACTIONS(name, Name) , Name##Actions
using Action = joined_variant_t<std::variant<> VITSCOPE_ROOMS(VITSCOPE_ROOM_ACTIONS)>;
#undef VITSCOPE_ROOM_ACTIONS

// Changes the state as the action says (values clamped to what the trace
// has): its room's reducer, then what the rooms above it do in answer
// (dispatch/reactions.h).
void apply(AppState& s, const Action& a);

}  // namespace session
