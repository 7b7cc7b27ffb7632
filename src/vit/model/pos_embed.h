// Position embeddings at a grid other than the one they were trained for,
// resized exactly as the model's own library resizes them (PosResize):
// torch.nn.functional.interpolate(mode="bicubic", align_corners=False,
// size=(grid, grid)), with antialias=True for timm and transformers'
// Dinov2WithRegisters and without it for transformers' ViT, DeiT, DINO and Dinov2.
#pragma once
#include <string>

#include "vit/base/tensor.h"
#include "vit/model/model.h"

namespace vit {

// One axis of torch's bicubic resize from `in` to `out` samples: output o is
// the sum over k of weights[o][k] * input[first[o] + k] (taps already clamped
// or cut at the borders, as torch does), weights computed in float in torch's
// order of operations.
struct ResizeTaps {
    std::vector<int> first;                   // out entries
    std::vector<std::vector<float>> weights;  // out entries, each the taps from first[o]
};
ResizeTaps bicubic_taps(int in, int out, PosResize how);

// A square field, one row of values per grid cell (row-major from the top
// left), resized to out_grid x out_grid: along the width first, then the height.
Mat resize_grid(const Mat& field, int in_grid, int out_grid, PosResize how);

// The model's position embeddings for a grid x grid patch layout: the prefix
// rows (CLS, distillation) as they are, the patch rows resized as above. The
// trained grid is returned unchanged, as every library does.
Mat interpolate_pos_embed(const Model& model, int grid);

// "bicubic, antialiased (as timm resizes them)" and the like, for `info`.
std::string describe_pos_resize(PosResize how);

}  // namespace vit
