#include "gfx/rgba_image.h"

#include <algorithm>

namespace gfx {

RgbaImage::RgbaImage(int w, int h, Rgba fill) : width(w), height(h), pixels(static_cast<size_t>(w) * h * 4) {
    for (size_t i = 0; i < pixels.size(); i += 4) {
        pixels[i] = fill.r;
        pixels[i + 1] = fill.g;
        pixels[i + 2] = fill.b;
        pixels[i + 3] = fill.a;
    }
}

void RgbaImage::blend(int x, int y, Rgba c, float coverage) {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    const float a = std::clamp(coverage, 0.f, 1.f) * (c.a / 255.f);
    if (a <= 0.f) return;
    uint8_t* p = at(x, y);
    const uint8_t src[3] = {c.r, c.g, c.b};
    for (int k = 0; k < 3; ++k) p[k] = static_cast<uint8_t>(p[k] + (src[k] - p[k]) * a + 0.5f);
    p[3] = static_cast<uint8_t>(std::max<float>(p[3], 255.f * a));
}

void RgbaImage::fill_rect(int x, int y, int w, int h, Rgba c) {
    const int x0 = std::max(x, 0), y0 = std::max(y, 0);
    const int x1 = std::min(x + w, width), y1 = std::min(y + h, height);
    for (int yy = y0; yy < y1; ++yy)
        for (int xx = x0; xx < x1; ++xx) {
            uint8_t* p = at(xx, yy);
            p[0] = c.r, p[1] = c.g, p[2] = c.b, p[3] = c.a;
        }
}

void RgbaImage::stroke_rect(int x, int y, int w, int h, int t, Rgba c) {
    fill_rect(x, y, w, t, c);
    fill_rect(x, y + h - t, w, t, c);
    fill_rect(x, y + t, t, h - 2 * t, c);
    fill_rect(x + w - t, y + t, t, h - 2 * t, c);
}

}  // namespace gfx
