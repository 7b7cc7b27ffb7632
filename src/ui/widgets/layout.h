// Where the three panels sit: photo on the left, heads and layers in the
// middle, the math and what-ifs on the right; proportional, so the window
// works from 1280x800 to 4K.
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

// classroom: the math panel (one step, large) the widest, the heads column (one layer's heads, no grid) narrower.
Layout compute_layout(ImVec2 display, float top, float bottom, bool classroom = false);

}  // namespace ui
