// What the preprocessing tests share: a test photo whose neighbouring pixels
// all differ, a crop check, and the resize a config implies.
#pragma once
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "vit/image/preprocess.h"
#include "vit/model/config.h"

namespace vit::testing {

// Pixel (x, y, c) = (37x + 91y + 53c) mod 256: no two neighbours alike.
inline Image pattern(int w, int h) {
    Image image{w, h, std::vector<uint8_t>(static_cast<size_t>(w) * h * 3)};
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < 3; ++c)
                image.rgb[(static_cast<size_t>(y) * w + x) * 3 + c] = (x * 37 + y * 91 + c * 53) % 256;
    return image;
}

inline void expect_crop(const CropRect& crop, double x, double y, double w, double h) {
    EXPECT_DOUBLE_EQ(crop.x, x);
    EXPECT_DOUBLE_EQ(crop.y, y);
    EXPECT_DOUBLE_EQ(crop.w, w);
    EXPECT_DOUBLE_EQ(crop.h, h);
}

// The shorter side's resize the config implies: timm's floor(input / crop_pct),
// or a Hugging Face processor's shortest_edge.
inline int resize_of(const PreprocessConfig& p) { return p.hf ? p.hf->shortest_edge : resize_side(p, p.input_size); }

}  // namespace vit::testing
