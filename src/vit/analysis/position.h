// What the position embeddings learned (ViT paper, Fig. 7 centre): the cosine
// similarity of each patch position's embedding with every other position's.
// At another input size the embeddings are the interpolated ones the forward
// pass adds (interpolate_pos_embed).
#pragma once
#include "vit/base/tensor.h"
#include "vit/model/model.h"

namespace vit {

// grid^2 x grid^2, row p (raster order) = cos(pos_p, pos_q) for every patch
// position q; 0 where an embedding is all zeros. Computed in double.
Mat position_similarity(const Model& model, int grid);
// One row of it: the position (row, col) against every patch position.
// Throws vit::Error when (row, col) is outside the grid.
Vec position_similarity_row(const Model& model, int grid, int row, int col);

// What the position page's claim ("positions close on the photo ended up with
// similar vectors") rests on, from a position_similarity() matrix: the mean
// cosine over pairs of positions at Chebyshev distance 1 (neighbours) and at 4
// or more (far apart), and among the far pairs those in the same row, the same
// column, and neither. The claim holds when neighbours are more similar than
// far pairs.
struct PositionStructure {
    double neighbours = 0, far = 0;
    double far_same_row = 0, far_same_col = 0, far_other = 0;
    bool holds() const { return neighbours > far; }
};
constexpr int kFarPositions = 4;
PositionStructure position_structure(const Mat& similarity, int grid);

}  // namespace vit
