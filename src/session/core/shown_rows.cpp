#include "session/core/shown_rows.h"

#include "vit/analysis/attention_rows.h"
#include "vit/analysis/step_explanation.h"

namespace session {

std::optional<vit::Vec> map_row(const vit::Trace& t, int layer, MapSource source, int head,
                                const std::vector<int>& visible_heads, int query) {
    if (source == MapSource::Head) return vit::attention_row(t, layer, head, query);
    if (visible_heads.empty()) return std::nullopt;
    return vit::mean_attention_row(t, layer, visible_heads, query);
}

std::optional<vit::Vec> shown_row(const AppState& s, int layer) {
    const vit::Trace* t = s.trace();
    if (!t) return std::nullopt;
    return map_row(*t, layer, s.sel.source, s.sel.head, s.sel.visible_heads(), s.sel.query);
}

std::string shown_caption(const AppState& s, int layer) {
    std::string c = "Layer " + std::to_string(layer) + " · ";
    if (s.sel.source == MapSource::Head) return c + "head " + std::to_string(s.sel.head);
    const std::vector<int> heads = s.sel.visible_heads();
    if (heads.empty()) return c + "no heads visible";
    if (static_cast<int>(heads.size()) == s.heads()) return c + "mean of all heads";
    c += "mean of heads ";
    for (size_t i = 0; i < heads.size(); ++i) c += (i ? ", " : "") + std::to_string(heads[i]);
    return c;
}

ExplainedKey explained_key(const AppState& s) {
    const vit::Trace* t = s.trace();
    if (!t) return {};
    if (s.sel.pinned_key >= 0) return {s.sel.pinned_key, ExplainedKey::Why::Pinned};
    if (s.sel.hovered_key >= 0) return {s.sel.hovered_key, ExplainedKey::Why::Hovered};
    return {vit::strongest_key(*t, s.sel.layer, s.sel.head, s.sel.query), ExplainedKey::Why::Strongest};
}

}  // namespace session
