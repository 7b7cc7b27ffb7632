#include "session/classroom/prediction.h"

#include "session/core/shown_rows.h"

namespace session {

std::optional<vit::PredictionScore> revealed_prediction(const AppState& s) {
    const vit::Trace* t = s.trace();
    if (!t || s.prediction.phase != AppState::Prediction::Phase::Revealed) return std::nullopt;
    const auto row = shown_row(s, s.sel.layer);
    if (!row) return std::nullopt;
    return vit::score_prediction(*t, *row, s.prediction.marked);
}

}  // namespace session
