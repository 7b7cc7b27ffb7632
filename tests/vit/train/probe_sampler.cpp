// The probe task's sampler (probe_task.inc): a green and a yellow square in
// two different cells; label 1: in the same row.
#include "vit/train/random.h"
#include "vit/train/tasks.h"

namespace vit::train::samplers {

Sample probe(std::mt19937_64& rng, int side, int cell) {
    const int grid = side / cell;
    Sample s = blank_sample(rng, side);
    s.label = uniform_int(rng, 2);
    const int row_a = uniform_int(rng, grid), col_a = uniform_int(rng, grid);
    int row_b = row_a, col_b = uniform_int(rng, grid - 1);
    if (col_b >= col_a) ++col_b;  // same row: another column
    if (!s.label) {
        row_b = uniform_int(rng, grid - 1);
        if (row_b >= row_a) ++row_b;
    }
    paint_cell(s, side, cell, row_a, col_a, kPalette[1]);
    paint_cell(s, side, cell, row_b, col_b, kPalette[3]);
    return s;
}

}  // namespace vit::train::samplers
