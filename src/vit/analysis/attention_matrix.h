// One head's whole N x N attention matrix as a picture: queries as rows, keys
// as columns, each row a softmax that sums to one (the picture textbooks
// show). The view zooms into a square window of cells around the selected
// query; these functions say which cells are on show and which one is under
// a point, so the drawing and the hover agree.
#pragma once
#include <string>

#include "vit/forward/forward.h"

namespace vit {

// A square window of the matrix: rows and columns first .. first + cells - 1.
struct MatrixWindow {
    int first_row = 0, first_col = 0, cells = 0;
};

// The window at zoom z (1: the whole matrix; z: N / z cells a side, at
// least 8), centred on the query's row and column and kept inside the matrix.
MatrixWindow matrix_window(int tokens, int zoom, int query);

// The cell under (x, y), each from 0 to 1 across the window's picture (x to
// the right, y down); {-1, -1} outside it.
struct MatrixCellIndex {
    int query = -1, key = -1;
};
MatrixCellIndex matrix_cell_at(const MatrixWindow& w, double x, double y);

// The largest weight of the head's matrix: the top of its log colour scale.
float matrix_max(const Trace& t, int layer, int head);

// "query patch r5 c7 (token 82) → key CLS (token 0): weight 0.1234".
std::string matrix_cell_caption(const Trace& t, int layer, int head, int query, int key);

}  // namespace vit
