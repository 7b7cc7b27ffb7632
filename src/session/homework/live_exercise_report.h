// The live exercise as the state file reports it (state_json's
// "live_exercise"): what is on show, the class's answer, the verdict with the
// numbers the reveal prints, and where the panel's buttons and field are.
#pragma once
#include <nlohmann/json.hpp>

#include "session/state/app_state.h"

namespace session {

nlohmann::json live_exercise_json(const AppState& s);

}  // namespace session
