// 8-bit RGBA pixels in memory, rows from the top: what the GPU reads back and
// what the PNG writer and the text rasteriser work on.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gfx {

struct Rgba {
    uint8_t r = 0, g = 0, b = 0, a = 255;
};

struct RgbaImage {
    int width = 0, height = 0;
    std::vector<uint8_t> pixels;  // width * height * 4

    RgbaImage() = default;
    RgbaImage(int w, int h, Rgba fill = {255, 255, 255, 255});
    uint8_t* at(int x, int y) { return &pixels[(static_cast<size_t>(y) * width + x) * 4]; }
    const uint8_t* at(int x, int y) const { return &pixels[(static_cast<size_t>(y) * width + x) * 4]; }
    // Blends colour over one pixel with the given coverage in [0, 1]; outside the image is ignored.
    void blend(int x, int y, Rgba colour, float coverage);
    // Fills a rectangle, clipped to the image.
    void fill_rect(int x, int y, int w, int h, Rgba colour);
    // A rectangle's outline, `thickness` pixels wide, inside the rectangle.
    void stroke_rect(int x, int y, int w, int h, int thickness, Rgba colour);
};

}  // namespace gfx
