// The steps timm's eval transform (preprocess.cpp) and transformers' image
// processors (preprocess_hf.cpp) share.
#pragma once
#include <array>

#include "vit/image/image.h"
#include "vit/image/preprocess.h"

namespace vit::detail {

struct Size {
    int w = 0, h = 0;
};

// The photo's shorter side at `side` pixels and the longer at
// int(side * long / short), as torchvision's Resize(int) and transformers'
// get_resize_output_image_size both compute it. Throws vit::Error when that
// would exceed kMaxImagePixels (a 60000 x 2 photo, say).
Size shorter_side_to(const Image& image, int side);

// Throws vit::Error when a w x h resize of `image` would exceed kMaxImagePixels.
void check_resize_target(const Image& image, long long w, long long h);

// For each channel, the model's input value for each 8-bit pixel value.
using ValueTable = std::array<std::array<float, 256>, 3>;

// The size x size input cut out of `resized` with its top left at (left, top)
// (beyond resized's edges: pixel value 0, as both pipelines pad with black),
// each value mapped through `values`, and the cut placed on the photo it was
// resized from (photo_w x photo_h pixels).
Input cut_input(const Image& resized, int left, int top, int size, const ValueTable& values, int photo_w, int photo_h);

// transformers' pipeline (PreprocessConfig::hf); size > 0 replaces cfg.input_size.
Input preprocess_hf(const Image& image, const PreprocessConfig& cfg, int size);

}  // namespace vit::detail
