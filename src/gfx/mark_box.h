// Where a marked cell's outline can reach in the viewport: overlay.frag draws
// outlines only inside these boxes (scissored), since working them out for
// every pixel of every map cost a fifth of the maps' time on llvmpipe.
#pragma once
#include <optional>

#include "vit/image/preprocess.h"

namespace gfx {

struct Viewport {
    int box[4] = {0, 0, 0, 0};  // x, y (from the bottom, as GL counts), width, height
};

struct ScissorBox {
    int x = 0, y = 0, w = 0, h = 0;  // GL's order, from the bottom
};

// What overlay.frag draws the grid from: the crop and view in photo pixels,
// the viewport the view fills, the patches per side, the line width.
struct MarkGeometry {
    vit::CropRect crop, view;
    int grid = 1;
    Viewport viewport;
    float line_width = 1.f;
};

// The box around cell (row, col) that holds its outline, within the
// viewport; none for no cell (negative) or one out of view.
std::optional<ScissorBox> mark_box(const MarkGeometry& g, int row, int col);

}  // namespace gfx
