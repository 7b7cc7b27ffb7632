// Where the three panels sit: photo on the left, heads and layers in the
// middle, the math and what-ifs on the right; proportional, so the window
// works from 1280x800 to 4K. Classroom mode: the photo on the left, the
// heads as one strip above the math step on the right.
#pragma once
#include <imgui.h>

namespace ui {

struct PanelRect {
    ImVec2 pos, size;
    bool scrolls = false;  // gave up room (to the tour's card): what no longer fits is scrolled to
};

struct Layout {
    PanelRect photo, heads, math;
};

// classroom: the photo's column at least 512 px (40 % to 50 % of the width), full height; the heads
// strip (one layer's heads in a row, no grid) across the top of the rest, the math step below it.
Layout compute_layout(ImVec2 display, float top, float bottom, bool classroom = false);

}  // namespace ui
