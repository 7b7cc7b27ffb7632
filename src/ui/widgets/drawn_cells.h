// Where a figure drew cells coloured from numbers (a page's grid of small
// maps, ...), so a test can sample the drawn colours and compare them with the
// numbers the command line prints. Filled only while a figure is drawn
// (Frame::drawn_cells); the window draws without it.
#pragma once
#include <string>
#include <vector>

namespace ui {

// A block of `maps` x `maps` small maps, each `grid` x `grid` square cells:
// small map (mr, mc)'s cell (r, c) covers
//   x = x0 + mc * step + c * cell .. + cell,  y = y0 + mr * step + r * cell .. + cell
// in the figure's logical pixels (the PNG's pixels are these times its density).
// One map alone is maps = 1. A strip of cells (a vector, vector_strip.h) is
// rows = 1 of `grid` cells `cell` wide and cell_h tall; rows = 0 and
// cell_h = 0 mean square cells, `grid` rows.
struct DrawnCells {
    std::string name;   // "position/small_maps"
    float x0 = 0, y0 = 0, cell = 0, step = 0;
    int grid = 0, maps = 1;
    int rows = 0;
    float cell_h = 0;
};

}  // namespace ui
