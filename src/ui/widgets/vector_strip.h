// A vector (q, k, v, q⊙k, o: d_k numbers) as a strip of coloured cells, blue
// for negative, white for 0, red for positive, so two vectors can be compared
// at a glance; hovering a cell shows its index and value.
#pragma once
#include "ui/widgets/frame.h"

namespace ui {

// Draws `n` values at the cursor, `width` wide. extent: the |value| that gets
// full colour (a shared extent makes strips comparable). Returns the hovered
// cell or -1.
int vector_strip(const Frame& f, const char* id, const float* values, int n, float extent, float width);

// The diverging colour for v in [-extent, extent]: the same knots as the
// shaders' diverging map, so strips and score maps read alike.
ImU32 diverging_color(float v, float extent);

}  // namespace ui
