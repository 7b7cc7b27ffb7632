// The core room's part of the state file (`--state-file`, dispatch/state_file.h):
// the selection, what is loaded and running, the maps' style, the layout.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include "session/base/drawn_report.h"
#include "session/state/app_state.h"

namespace session {

// Points drawn for tests to click, as the state file writes them: {name: [x, y]}.
nlohmann::json points_by_name(const std::vector<PageTarget>& targets);

// Each room writes its own keys into the state file's one object.

void core_json(const AppState& s, const DrawnReport& drawn, nlohmann::json& j);

}  // namespace session
