#include "session/dispatch/requests.h"

namespace session {

FrameOutcome handle_frame(AppState& s, const std::vector<Request>& requests) {
    FrameOutcome out;
    bool hover_reported = false;
    for (const Request& r : requests) {
        if (const auto* c = std::get_if<Command>(&r)) {
            out.commands.push_back(*c);
        } else {
            const Action& a = std::get<Action>(r);
            if (const auto* h = std::get_if<act::HoverKey>(&a)) {
                hover_reported = true;
                if (h->token == s.sel.hovered_key) continue;
            }
            apply(s, a);
        }
        out.changed = true;
    }
    if (!hover_reported && s.sel.hovered_key >= 0) {
        apply(s, act::HoverKey{-1});
        out.changed = true;
    }
    return out;
}

}  // namespace session
