// A photo made into the model's input, exactly as the model's own pipeline does it:
// - timm's eval transform: resize the shorter side to floor(input_size / crop_pct)
//   with PIL (bicubic a = -0.5 or bilinear, antialiased when shrinking), centre
//   crop as torchvision, scale to [0,1], normalise;
// - a Hugging Face image processor (PreprocessConfig::hf) as transformers runs it
//   with PIL: resize to height x width (aspect not kept) or the shorter side to
//   shortest_edge, back to 8 bits, centre crop as transformers' center_crop,
//   rescale, normalise.
#pragma once
#include <string>
#include <vector>

#include "vit/image/image.h"
#include "vit/model/config.h"

namespace vit {

// Where the model's square input sits on the photo, in original pixels
// (fractional: the resize scale need not be integral). Width and height differ
// when the photo was squashed: then each patch covers a non-square cell.
struct CropRect {
    double x = 0, y = 0, w = 0, h = 0;
    bool operator==(const CropRect&) const = default;
};

struct Input {
    int size = 0;            // square side, pixels
    std::vector<float> chw;  // 3 x size x size, normalised
    CropRect crop;
    float at(int c, int y, int x) const { return chw[(static_cast<size_t>(c) * size + y) * size + x]; }
};

// input_size 0 uses cfg.input_size; another value (e.g. 448) scales the resize
// the same way (timm: floor(input_size / crop_pct); HF: every size by
// input_size / cfg.input_size).
Input preprocess(const Image& image, const PreprocessConfig& cfg, int input_size = 0);

// timm: the length the shorter side is resized to, floor(input_size / crop_pct),
// with crop_pct as written in the config (0.9, not 0.899999976).
int resize_side(const PreprocessConfig& cfg, int input_size);

// The resize alone, as PIL's Image.resize does it on 8-bit RGB: "bicubic" and
// "bilinear" in separable passes with fixed-point coefficients, rounded to 8
// bits after each pass; "nearest" as PIL's nearest-neighbour scaling. Exposed
// for tests against PIL itself.
Image resize_pil(const Image& image, int out_w, int out_h, const std::string& interpolation);

// The preprocessing in words, for `vitscope info`, e.g. "ViTImageProcessor:
// resize to 224 x 224 (aspect not kept), bilinear (PIL), rescale 1/255,
// normalise mean (0.5, 0.5, 0.5) std (0.5, 0.5, 0.5)".
std::string describe_preprocessing(const PreprocessConfig& cfg);

}  // namespace vit
