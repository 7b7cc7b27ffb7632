#include "ui/widgets/layout.h"

#include <algorithm>
#include <cmath>

namespace ui {

Layout compute_layout(ImVec2 display, float top, float bottom, bool classroom) {
    const float h = std::max(100.f, display.y - top - bottom);
    const float w = display.x;
    // The photo gets the most room; the heads column needs little width. In
    // classroom mode the one math step on show (its type half again as large,
    // its maps side by side) gets the most, so 1024 px still fit its lines.
    const float photo_w = std::floor(w * (classroom ? 0.34f : 0.40f));
    const float heads_w = std::floor(w * (classroom ? 0.18f : 0.22f));
    Layout l;
    l.photo = {ImVec2(0, top), ImVec2(photo_w, h)};
    l.heads = {ImVec2(photo_w, top), ImVec2(heads_w, h)};
    l.math = {ImVec2(photo_w + heads_w, top), ImVec2(w - photo_w - heads_w, h)};
    return l;
}

}  // namespace ui
