// What panels, keys and scripts ask of the window: Command is every room's
// commands joined (state/rooms.h): opening files, running the worker and
// experiments, exports, quitting. The window carries each out with its room's
// handler (app/gui/window_commands.cpp); changes to the state alone are
// Actions (actions.h). A frame's requests keep their order: handle_frame
// applies the actions and hands the commands back.
#pragma once
#include <vector>

#include "session/dispatch/actions.h"

namespace session {

#define VITSCOPE_ROOM_COMMANDS(name, Name) , Name##Commands
using Command = joined_variant_t<std::variant<> VITSCOPE_ROOMS(VITSCOPE_ROOM_COMMANDS)>;
#undef VITSCOPE_ROOM_COMMANDS

// One thing asked for in a frame, in the order it was asked.
using Request = std::variant<Action, Command>;

// A room's request (one of its actions or commands, as its verbs make them) as a frame's request.
template <class RoomRequest>
Request as_request(const RoomRequest& r) {
    return std::visit(
        [](const auto& x) -> Request {
            if constexpr (variant_holds_v<Action, decltype(x)>) return Action{x};
            else return Command{x};
        },
        r);
}

// What a frame's requests came to: whether anything happened, and the
// commands for the window, in order.
struct FrameOutcome {
    bool changed = false;
    std::vector<Command> commands;
};

// Applies a frame's actions in order and returns its commands, with the
// hover rule: a key stays hovered while some panel reports it, frame after
// frame, so a report of the key already hovered is skipped and, when no
// panel reported a hover this frame, a hovered key is released (HoverKey{-1}
// last).
FrameOutcome handle_frame(AppState& s, const std::vector<Request>& requests);

}  // namespace session
