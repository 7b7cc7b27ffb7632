// The one-dot-per-head plot: a number for every layer and head, each layer's
// heads side by side around its tick, the shown head ringed, a click on a dot
// showing that layer and head.
#pragma once
#include <vector>

#include "ui/widgets/frame.h"

namespace ui {

// Where head `head` of a layer's `heads` sits on the x axis: around `layer`, 0.12 apart.
double head_dot_x(int layer, int head, int heads);

// values[layer][head], on a y axis from 0 to 1 named y_label; the dot of
// (ring_layer, ring_head) drawn ringed. A click on a dot emits SetLayer and
// SetHead for it and returns true.
bool head_dots(const Frame& f, const char* id, ImVec2 size, const char* y_label,
               const std::vector<std::vector<double>>& values, int ring_layer, int ring_head);

}  // namespace ui
