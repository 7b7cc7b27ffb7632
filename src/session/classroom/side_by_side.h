// View > Side by side: what each pane shows and their one colour scale.
#pragma once
#include <optional>

#include "session/state/app_state.h"
#include "vit/base/tensor.h"

namespace session {

// The trace a pane reads: the open photo's, or the second photo's (null when it has none).
const vit::Trace* pane_trace(const AppState& s, const AppState::SidePane& pane);

// The pane's row: its head's weights for the selected query (the same token
// index on the second photo, whose grid is the same model's); nothing without a trace.
std::optional<vit::Vec> pane_row(const AppState& s, const AppState::SidePane& pane);

// The top of the shared scale: the larger of the two rows' largest patch
// weight (vit::shared_patch_max); nothing when either pane has no row.
std::optional<float> side_by_side_scale(const AppState& s);

}  // namespace session
