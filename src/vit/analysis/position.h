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

}  // namespace vit
