// timm's eval transform, exactly: resize the shorter side to
// floor(input_size / crop_pct) with PIL's bicubic (a = -0.5, antialiased when
// shrinking) or bilinear filter, centre crop, scale to [0,1], normalise.
#pragma once
#include <string>
#include <vector>

#include "config.h"
#include "image.h"

namespace vit {

// Where the model's square input sits on the photo, in original pixels
// (fractional: the resize scale need not be integral).
struct CropRect {
    double x = 0, y = 0, w = 0, h = 0;
};

struct Input {
    int size = 0;                 // square side, pixels
    std::vector<float> chw;       // 3 x size x size, normalised
    CropRect crop;
    float at(int c, int y, int x) const { return chw[(static_cast<size_t>(c) * size + y) * size + x]; }
};

// input_size 0 uses cfg.input_size; another value (e.g. 448) scales the resize
// the same way (floor(input_size / crop_pct)).
Input preprocess(const Image& image, const PreprocessConfig& cfg, int input_size = 0);

// The length the shorter side is resized to: floor(input_size / crop_pct),
// with crop_pct as written in the config (0.9, not 0.899999976).
int resize_side(const PreprocessConfig& cfg, int input_size);

// The resize alone, as PIL's Image.resize does it on 8-bit RGB (separable
// passes with fixed-point coefficients, rounded to 8 bits after each pass),
// exposed for tests against PIL itself.
Image resize_pil(const Image& image, int out_w, int out_h, const std::string& interpolation);

}  // namespace vit
