// The attention rows the panels show, read from the trace for the current
// selection. No GL here.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "session/state/app_state.h"
#include "vit/base/tensor.h"

namespace session {

// The one place that decides what a map shows: the weights of `head` for the
// query, or (MeanOfVisible) their mean over `visible_heads`; nothing when no
// heads are visible. The photo view, the thumbnails, the layers x heads grid
// and both figure exports go through it.
std::optional<vit::Vec> map_row(const vit::Trace& t, int layer, MapSource source, int head,
                                const std::vector<int>& visible_heads, int query);

// The row the photo view shows: the selected head's weights for the query,
// or the mean over the visible heads; nothing when no heads are visible.
std::optional<vit::Vec> shown_row(const AppState& s, int layer);

// "Layer 8 · head 1" or "Layer 8 · mean of heads 0, 2".
std::string shown_caption(const AppState& s, int layer);

// The key the math panel explains and why that one: pinned, else hovered,
// else the key the query attends to most; token -1 (None) with no trace.
struct ExplainedKey {
    enum class Why { None, Pinned, Hovered, Strongest };
    int token = -1;
    Why why = Why::None;
};
ExplainedKey explained_key(const AppState& s);

}  // namespace session
