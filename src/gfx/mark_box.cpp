#include "gfx/mark_box.h"

#include <algorithm>
#include <cmath>

namespace gfx {

std::optional<ScissorBox> mark_box(const MarkGeometry& g, int row, int col) {
    if (row < 0 || col < 0 || g.grid <= 0 || g.view.w <= 0 || g.view.h <= 0) return std::nullopt;
    const int vx = g.viewport.box[0], vy = g.viewport.box[1], vw = g.viewport.box[2], vh = g.viewport.box[3];
    // The cell's edges in photo pixels, then in the viewport's pixels (v runs down the photo, GL's y up).
    const double x0 = g.crop.x + col * g.crop.w / g.grid, x1 = g.crop.x + (col + 1) * g.crop.w / g.grid;
    const double y0 = g.crop.y + row * g.crop.h / g.grid, y1 = g.crop.y + (row + 1) * g.crop.h / g.grid;
    const double left = vx + (x0 - g.view.x) / g.view.w * vw, right = vx + (x1 - g.view.x) / g.view.w * vw;
    const double top = vy + (1 - (y0 - g.view.y) / g.view.h) * vh, bottom = vy + (1 - (y1 - g.view.y) / g.view.h) * vh;
    // overlay.frag's widest outline (the query's): 1.5 w either side of the
    // border, a dark edge of max(1, 0.75 w) and half a pixel of antialiasing;
    // plus a pixel and a half for rounding.
    const double w = std::max(0.5, static_cast<double>(g.line_width));
    const double reach = 1.5 * w + std::max(1.0, 0.75 * w) + 0.5 + 1.5;
    // Clamped to the viewport before becoming ints: zoomed far in, a cell can lie millions of pixels away.
    auto within = [](double v, int lo, int hi) { return static_cast<int>(std::clamp(v, double(lo), double(hi))); };
    const int bx0 = within(std::floor(left - reach), vx, vx + vw), bx1 = within(std::ceil(right + reach), vx, vx + vw);
    const int by0 = within(std::floor(bottom - reach), vy, vy + vh), by1 = within(std::ceil(top + reach), vy, vy + vh);
    if (bx1 <= bx0 || by1 <= by0) return std::nullopt;
    return ScissorBox{bx0, by0, bx1 - bx0, by1 - by0};
}

}  // namespace gfx
