// Where a colour bar's tick marks go and what they read, in the map's own
// units (attention weights, scores), inverting the overlay shader's mapping.
#pragma once
#include <string>
#include <vector>

#include "gfx/overlay_renderer.h"

namespace gfx {

struct Tick {
    float position;     // along the bar, 0..1 (the colormap position t)
    std::string label;  // the value there, e.g. "0.04"
};

// The value that lands at colormap position t, for a grid whose largest value is row_max.
double value_at_position(const OverlayStyle& style, float row_max, double t);

// Round-numbered ticks (1, 2, 2.5, 5 x 10^k steps; decades on a log scale),
// at most max_ticks of them, inside the bar.
std::vector<Tick> colorbar_ticks(const OverlayStyle& style, float row_max, int max_ticks = 6);

}  // namespace gfx
