// Everything the window shows is decided here: AppState joins every room's
// state (state/rooms.h), so `s.sel`, `s.tour` or `s.lab` name a room's part.
// Panels read an AppState and ask for changes (actions, applied by
// session::apply in dispatch/actions.h, each by its room's reducer) and for
// work (commands, carried out by the window), so every change goes through
// one place. Where things were drawn is not state: see base/drawn_report.h.
#pragma once
#include "session/state/rooms.h"

namespace session {

namespace detail {
template <class... Rooms>
struct JoinedRooms : Rooms... {};
struct NoRoom {};
}  // namespace detail

#define VITSCOPE_ROOM_STATE(name, Name) , Name##Room
struct AppState : detail::JoinedRooms<detail::NoRoom VITSCOPE_ROOMS(VITSCOPE_ROOM_STATE)> {};
#undef VITSCOPE_ROOM_STATE

}  // namespace session
