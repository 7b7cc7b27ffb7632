#include "ui/widgets/layout.h"

#include <algorithm>
#include <cmath>

namespace ui {

Layout compute_layout(ImVec2 display, float top, float bottom, bool classroom) {
    const float h = std::max(100.f, display.y - top - bottom);
    const float w = display.x;
    Layout l;
    if (classroom) {
        // A projector: the photo first, a column of its own as wide as a 4:3
        // photo 360 px tall needs (half the window at 1024 px, 40 % from
        // 1280 px on); the heads one strip over the math step on the right.
        const float photo_w = std::floor(std::clamp(512.f, w * 0.40f, w * 0.50f));
        const float strip_h = std::floor(std::clamp(h * 0.2f, std::min(130.f, h * 0.4f), 220.f));
        l.photo = {ImVec2(0, top), ImVec2(photo_w, h)};
        l.heads = {ImVec2(photo_w, top), ImVec2(w - photo_w, strip_h)};
        l.math = {ImVec2(photo_w, top + strip_h), ImVec2(w - photo_w, h - strip_h)};
        return l;
    }
    // The photo gets the most room; the heads column needs little width.
    const float photo_w = std::floor(w * 0.40f);
    const float heads_w = std::floor(w * 0.22f);
    l.photo = {ImVec2(0, top), ImVec2(photo_w, h)};
    l.heads = {ImVec2(photo_w, top), ImVec2(heads_w, h)};
    l.math = {ImVec2(photo_w + heads_w, top), ImVec2(w - photo_w - heads_w, h)};
    return l;
}

}  // namespace ui
