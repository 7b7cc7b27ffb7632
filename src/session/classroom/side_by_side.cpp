#include "session/classroom/side_by_side.h"

#include "session/core/shown_rows.h"
#include "vit/analysis/side_by_side.h"

namespace session {

const vit::Trace* pane_trace(const AppState& s, const AppState::SidePane& pane) {
    return pane.second_photo ? s.compared.trace.get() : s.trace();
}

std::optional<vit::Vec> pane_row(const AppState& s, const AppState::SidePane& pane) {
    const vit::Trace* t = pane_trace(s, pane);
    if (!t || s.sel.query >= t->tokens || pane.layer >= static_cast<int>(t->layers.size())) return std::nullopt;
    return map_row(*t, pane.layer, MapSource::Head, pane.head, {}, s.sel.query);
}

std::optional<float> side_by_side_scale(const AppState& s) {
    const auto& sb = s.side_by_side;
    const auto left = pane_row(s, sb.left), right = pane_row(s, sb.right);
    if (!left || !right) return std::nullopt;
    return vit::shared_patch_max(*pane_trace(s, sb.left), *left, *pane_trace(s, sb.right), *right);
}

}  // namespace session
