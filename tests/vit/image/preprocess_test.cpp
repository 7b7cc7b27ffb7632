// preprocess / resize_pil: timm's eval transform (shorter side to
// floor(size / crop_pct), centre crop, normalise) and PIL's fixed-point resize.
// Expected pixels below come from Pillow 9.4 (Image.resize on the same 7 x 5
// image); tests/vit/image/preprocess_pil_test.py checks whole photos against PIL itself.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/preprocess_checks.h"
#include "support/default_model.h"
#include "support/default_preprocess.h"
#include "vit/base/error.h"
#include "vit/image/image.h"
#include "vit/image/preprocess.h"

namespace {

using vit::testing::expect_crop;
using vit::testing::pattern;

using vit::testing::asset;
using vit::testing::default_model_preprocess;

vit::Image filled(int w, int h, uint8_t r, uint8_t g, uint8_t b) {
    vit::Image image{w, h, {}};
    for (int i = 0; i < w * h; ++i) image.rgb.insert(image.rgb.end(), {r, g, b});
    return image;
}

float normalised(uint8_t v, float mean, float std) { return (static_cast<float>(v) / 255.0f - mean) / std; }

// --- resize_pil against Pillow's numbers ---

TEST(PreprocessResize, BicubicShrinkMatchesPil) {  // antialiased: the filter widens by the scale
    const vit::Image out = vit::resize_pil(pattern(7, 5), 3, 2, "bicubic");
    ASSERT_EQ(out.width, 3);
    ASSERT_EQ(out.height, 2);
    EXPECT_EQ(out.rgb, (std::vector<uint8_t>{95, 124, 133, 130, 157, 134, 133, 127, 139, 110, 136, 149, 116, 129, 121,
                                             126, 140, 130}));
}

TEST(PreprocessResize, BicubicMixedMatchesPil) {  // wider and shorter: overshoot is clipped
    const vit::Image out = vit::resize_pil(pattern(7, 5), 10, 3, "bicubic");
    EXPECT_EQ(out.rgb,
              (std::vector<uint8_t>{39,  91,  144, 57,  110, 171, 86,  139, 169, 112, 165, 107, 138, 197, 125,
                                    169, 181, 164, 187, 126, 186, 125, 162, 97,  123, 117, 85,  150, 53,  114,
                                    126, 188, 84,  155, 119, 106, 144, 68,  121, 56,  104, 105, 71,  140, 133,
                                    109, 147, 136, 137, 128, 118, 115, 155, 151, 127, 159, 184, 150, 146, 202,
                                    66,  119, 172, 85,  138, 200, 114, 170, 191, 140, 196, 108, 177, 116, 133,
                                    144, 87,  120, 67,  129, 65,  97,  159, 91,  132, 131, 123, 150, 82,  142}));
}

TEST(PreprocessResize, BilinearMatchesPil) {
    const vit::Image out = vit::resize_pil(pattern(7, 5), 4, 8, "bilinear");
    EXPECT_EQ(out.rgb,
              (std::vector<uint8_t>{19,  72,  125, 77,  130, 183, 145, 198, 200, 203, 122, 65,  59,  112, 160, 117,
                                    170, 133, 163, 157, 150, 136, 108, 100, 115, 161, 194, 161, 211, 72,  178, 106,
                                    92,  55,  97,  150, 164, 142, 99,  90,  108, 97,  107, 118, 149, 104, 154, 207,
                                    141, 119, 79,  67,  84,  137, 99,  152, 148, 157, 169, 183, 46,  92,  136, 92,
                                    141, 194, 156, 209, 90,  214, 142, 80,  87,  140, 186, 145, 158, 136, 110, 122,
                                    95,  127, 122, 121, 127, 180, 221, 185, 166, 86,  69,  50,  103, 55,  108, 161}));
}

TEST(PreprocessResize, BilinearShrinkMatchesPil) {  // antialiased like bicubic: the triangle widens by the scale
    const vit::Image out = vit::resize_pil(pattern(7, 5), 3, 2, "bilinear");
    EXPECT_EQ(out.rgb, (std::vector<uint8_t>{99, 127, 137, 129, 154, 131, 129, 126, 137, 106, 134, 147, 118, 132, 127,
                                             128, 141, 127}));
}

// PIL's NEAREST is no filter but its affine scaling: pixel int((i + 0.5) * in / out).
TEST(PreprocessResize, NearestShrinkMatchesPil) {
    const vit::Image out = vit::resize_pil(pattern(7, 5), 3, 2, "nearest");
    EXPECT_EQ(out.rgb, (std::vector<uint8_t>{128, 181, 234, 202, 255, 52, 20, 73, 126, 54, 107, 160, 128, 181, 234, 202,
                                             255, 52}));
}

TEST(PreprocessResize, NearestMixedMatchesPil) {  // 7 -> 10 columns repeat some, 5 -> 3 rows skip some
    const vit::Image out = vit::resize_pil(pattern(7, 5), 10, 3, "nearest");
    EXPECT_EQ(out.rgb,
              (std::vector<uint8_t>{0,   53,  106, 37,  90,  143, 37,  90,  143, 74,  127, 180, 111, 164, 217,
                                    111, 164, 217, 148, 201, 254, 185, 238, 35,  185, 238, 35,  222, 19,  72,
                                    182, 235, 32,  219, 16,  69,  219, 16,  69,  0,   53,  106, 37,  90,  143,
                                    37,  90,  143, 74,  127, 180, 111, 164, 217, 111, 164, 217, 148, 201, 254,
                                    108, 161, 214, 145, 198, 251, 145, 198, 251, 182, 235, 32,  219, 16,  69,
                                    219, 16,  69,  0,   53,  106, 37,  90,  143, 37,  90,  143, 74,  127, 180}));
}

TEST(PreprocessResize, NearestPicksWholePixels) {  // every output pixel is some input pixel, unblended
    const vit::Image in = pattern(7, 5);
    const vit::Image out = vit::resize_pil(in, 7, 12, "nearest");
    for (int y = 0; y < 12; ++y)
        for (int x = 0; x < 7; ++x)  // the width is kept: column x is column x; row y is row int((y + 0.5) * 5 / 12)
            for (int c = 0; c < 3; ++c) ASSERT_EQ(out.at(x, y, c), in.at(x, (2 * y + 1) * 5 / 24, c)) << x << " " << y;
}

TEST(PreprocessResize, OnePassWhenOneSideKeepsItsSize) {  // Pillow skips the other pass
    EXPECT_EQ(vit::resize_pil(pattern(7, 5), 3, 5, "bicubic").rgb,
              (std::vector<uint8_t>{27,  80,  134, 111, 172, 213, 195, 150, 91,  119, 180, 178, 198, 181, 56,
                                    76,  74,  135, 163, 104, 59,  41,  82,  143, 120, 174, 227, 44,  97,  159,
                                    128, 189, 160, 212, 167, 53,  144, 197, 195, 145, 90,  73,  38,  91,  152}));
    EXPECT_EQ(vit::resize_pil(pattern(7, 5), 7, 2, "bicubic").rgb,
              (std::vector<uint8_t>{79,  132, 123, 116, 107, 160, 91,  144, 99,  128, 189, 136, 173, 120,
                                    165, 104, 157, 114, 141, 98,  151, 91,  144, 135, 128, 119, 172, 103,
                                    156, 113, 140, 105, 150, 89,  134, 81,  118, 171, 126, 155, 110, 163}));
}

TEST(PreprocessResize, BilinearByHand) {
    // [0, 255] to 4 pixels: outer pixels see one input; inner ones weigh
    // 3/4 and 1/4, and 255/4 = 63.75 rounds to 64 in 22-bit fixed point.
    const vit::Image row = vit::resize_pil(vit::Image{2, 1, {0, 0, 0, 255, 255, 255}}, 4, 1, "bilinear");
    const vit::Image column = vit::resize_pil(vit::Image{1, 2, {0, 0, 0, 255, 255, 255}}, 1, 4, "bilinear");
    for (const vit::Image* image : {&row, &column}) {
        ASSERT_EQ(image->rgb.size(), 12u);
        for (int i = 0; i < 4; ++i) EXPECT_EQ(image->rgb[i * 3], (std::vector<int>{0, 64, 191, 255}[i]));
    }
}

TEST(PreprocessResize, SameSizeIsACopy) {
    const vit::Image in = pattern(5, 4);
    const vit::Image out = vit::resize_pil(in, 5, 4, "bicubic");
    EXPECT_EQ(out.width, 5);
    EXPECT_EQ(out.height, 4);
    EXPECT_EQ(out.rgb, in.rgb);
}

TEST(PreprocessResize, FlatImageStaysFlat) {  // weights sum to one; no overshoot without an edge
    for (const auto& [w, h] : {std::pair{330, 248}, std::pair{1000, 3}, std::pair{5, 700}}) {
        const vit::Image out = vit::resize_pil(filled(640, 480, 37, 150, 222), w, h, "bicubic");
        ASSERT_EQ(out.rgb.size(), static_cast<size_t>(w) * h * 3);
        for (size_t i = 0; i < out.rgb.size(); i += 3) {
            ASSERT_EQ(out.rgb[i], 37);
            ASSERT_EQ(out.rgb[i + 1], 150);
            ASSERT_EQ(out.rgb[i + 2], 222);
        }
    }
}

TEST(PreprocessResize, RefusesBadArguments) {
    const vit::Image image = pattern(4, 4);
    EXPECT_THROW(vit::resize_pil(image, 2, 2, "lanczos-ish"), vit::Error);
    EXPECT_THROW(vit::resize_pil(image, 0, 2, "bicubic"), vit::Error);
    EXPECT_THROW(vit::resize_pil(vit::Image{}, 2, 2, "bicubic"), vit::Error);
}

// --- the whole transform ---

TEST(Preprocess, DogCropRect) {
    // 768 x 576 -> 330 x 248 (int(248 * 768 / 576) = 330), crop 224 at
    // left round(53.0) = 53, top round(12.0) = 12.
    const vit::Input input = vit::preprocess(vit::load_image(asset("dog.jpg")), default_model_preprocess());
    EXPECT_EQ(input.size, 224);
    EXPECT_EQ(input.chw.size(), 3u * 224 * 224);
    const double sx = 330.0 / 768, sy = 248.0 / 576;
    expect_crop(input.crop, 53 / sx, 12 / sy, 224 / sx, 224 / sy);
}

TEST(Preprocess, PortraitResizesWidth) {
    const vit::Input input = vit::preprocess(filled(576, 768, 1, 2, 3), default_model_preprocess());
    const double sx = 248.0 / 576, sy = 330.0 / 768;
    expect_crop(input.crop, 12 / sx, 53 / sy, 224 / sx, 224 / sy);
}

TEST(Preprocess, CropOffsetRoundsHalfToEven) {
    // Shorter side already 248: no resize. (333 - 224) / 2 = 54.5 and
    // (331 - 224) / 2 = 53.5 both give 54 with Python's round().
    for (int width : {333, 331}) {
        SCOPED_TRACE(width);
        const vit::Image image = pattern(width, 248);
        const vit::Input input = vit::preprocess(image, default_model_preprocess());
        expect_crop(input.crop, 54, 12, 224, 224);
        for (int c = 0; c < 3; ++c) EXPECT_EQ(input.at(c, 0, 0), normalised(image.at(54, 12, c), 0.5f, 0.5f));
    }
}

TEST(Preprocess, OtherInputSize) {
    // 448: floor(448 / 0.9) = 497; 768 x 576 -> 662 x 497; top round(24.5) = 24.
    const vit::Input input = vit::preprocess(filled(768, 576, 9, 9, 9), default_model_preprocess(), 448);
    EXPECT_EQ(input.size, 448);
    EXPECT_EQ(input.chw.size(), 3u * 448 * 448);
    const double sx = 662.0 / 768, sy = 497.0 / 576;
    expect_crop(input.crop, 107 / sx, 24 / sy, 448 / sx, 448 / sy);
}

TEST(Preprocess, CropPctAsWrittenInConfig) {
    // Python reads 0.85 as a double: floor(238 / 0.85) = 280. The float 0.85f
    // is a little larger and would give 279.
    vit::PreprocessConfig cfg = default_model_preprocess();
    cfg.crop_pct = 0.85f;
    cfg.input_size = 238;
    const vit::Input input = vit::preprocess(filled(400, 300, 0, 0, 0), cfg);
    EXPECT_DOUBLE_EQ(input.crop.h, 238 / (280.0 / 300));
}

TEST(Preprocess, ConstantImageNormalisesExactly) {
    vit::PreprocessConfig cfg = default_model_preprocess();
    cfg.mean = {0.485f, 0.456f, 0.406f};
    cfg.std = {0.229f, 0.224f, 0.225f};
    const uint8_t rgb[3] = {37, 150, 222};
    const vit::Input input = vit::preprocess(filled(500, 400, rgb[0], rgb[1], rgb[2]), cfg);
    for (int c = 0; c < 3; ++c) {
        const float expected = normalised(rgb[c], cfg.mean[c], cfg.std[c]);
        for (int y = 0; y < input.size; ++y)
            for (int x = 0; x < input.size; ++x) ASSERT_EQ(input.at(c, y, x), expected) << c << " " << y << " " << x;
    }
}

TEST(Preprocess, PadsWhenTheCropIsLarger) {
    // crop_pct 1.2: shorter side floor(224 / 1.2) = 186 < 224, so torchvision
    // pads with black, (224 - 186) / 2 = 19 columns on the left.
    vit::PreprocessConfig cfg = default_model_preprocess();
    cfg.crop_pct = 1.2f;
    const vit::Input input = vit::preprocess(filled(186, 186, 255, 255, 255), cfg);
    EXPECT_EQ(input.at(0, 100, 18), -1.0f);
    EXPECT_EQ(input.at(0, 100, 19), 1.0f);
    EXPECT_EQ(input.at(0, 100, 19 + 185), 1.0f);
    EXPECT_EQ(input.at(0, 100, 19 + 186), -1.0f);
    expect_crop(input.crop, -19, -19, 224, 224);
}

TEST(Preprocess, RefusesBadConfig) {
    vit::PreprocessConfig cfg = default_model_preprocess();
    EXPECT_THROW(vit::preprocess(vit::Image{}, cfg), vit::Error);
    EXPECT_THROW(vit::preprocess(pattern(8, 8), cfg, -5), vit::Error);
    cfg.interpolation = "lanczos";
    EXPECT_THROW(vit::preprocess(pattern(8, 8), cfg), vit::Error);
    cfg.interpolation = "bicubic";
    cfg.crop_pct = 0;
    EXPECT_THROW(vit::preprocess(pattern(8, 8), cfg), vit::Error);
}

}  // namespace
