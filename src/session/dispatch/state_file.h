// The state file (--state-file): what a test reads of the window after each
// frame, one JSON object: the selection and everything on show from the
// state, and where the last whole frame drew things (drawn_report.h).
#pragma once
#include <string>

#include "session/base/drawn_report.h"
#include "session/state/app_state.h"

namespace session {

std::string state_json(const AppState& s, const DrawnReport& drawn = {});

}  // namespace session
