// The Learning lab as the state file reports it: the run and checkpoint on
// show, the sample and its squares, the heads' shares, the sentences and
// whether each holds, and a training run's progress.
#pragma once
#include <nlohmann/json.hpp>

#include "session/lab/lab_state.h"

namespace session {

nlohmann::json lab_json(const LabState& lab);

}  // namespace session
