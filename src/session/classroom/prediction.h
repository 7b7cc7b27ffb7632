// Predict, then reveal: the score of the marks on the map on show, once revealed.
#pragma once
#include <optional>

#include "session/state/app_state.h"
#include "vit/analysis/prediction.h"

namespace session {

// The weight the shown map (the selected head, or the mean of the visible
// heads, for the query) puts on the marked patches; nothing before the
// reveal, without a trace, or with no heads visible.
std::optional<vit::PredictionScore> revealed_prediction(const AppState& s);

}  // namespace session
