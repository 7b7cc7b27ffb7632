// The attention rows the panels show, read from the trace for the current
// selection. No GL here.
#pragma once
#include <optional>
#include <string>

#include "state.h"
#include "vit/tensor.h"

namespace session {

// The row the photo view shows: the selected head's weights for the query,
// or the mean over the visible heads; nothing when no heads are visible.
std::optional<vit::Vec> shown_row(const AppState& s, int layer);

// "Layer 8 · head 1" or "Layer 8 · mean of heads 0, 2".
std::string shown_caption(const AppState& s, int layer);

// The key the math panel explains: pinned, else hovered, else the key the
// query attends to most.
int explained_key(const AppState& s);

}  // namespace session
