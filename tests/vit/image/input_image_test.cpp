// input_as_image: the model's input back as 8-bit pixels. For inputs that
// preprocess made (timm's pipeline on a real photo, a Hugging Face processor
// with its own rescale and normalisation), normalising the pixels it gives
// back must reproduce every input value exactly: they are the pixels the
// model read. A rearranged input's picture is the original's with its
// patches moved.
#include <gtest/gtest.h>

#include <algorithm>

#include "support/default_model.h"
#include "support/default_preprocess.h"
#include "vit/analysis/patch_permutation.h"
#include "vit/base/error.h"
#include "vit/image/image.h"
#include "vit/image/input_image.h"
#include "vit/image/preprocess.h"

namespace vit {
namespace {

// preprocess's own value of an 8-bit pixel (its formulas, timm and HF).
float timm_value(uint8_t v, const PreprocessConfig& cfg, int c) {
    return (static_cast<float>(v) / 255.0f - cfg.mean[c]) / cfg.std[c];
}
float hf_value(uint8_t v, const PreprocessConfig& cfg, int c) {
    const HfImageProcessor& p = *cfg.hf;
    float x = p.do_rescale ? static_cast<float>(v * p.rescale_factor) : static_cast<float>(v);
    if (p.do_normalize) x = (x - cfg.mean[c]) / cfg.std[c];
    return x;
}

template <class Value>
void expect_pixels_of(const Input& in, const Image& back, const PreprocessConfig& cfg, Value value) {
    ASSERT_EQ(back.width, in.size);
    ASSERT_EQ(back.height, in.size);
    int wrong = 0;
    for (int c = 0; c < 3; ++c)
        for (int y = 0; y < in.size; ++y)
            for (int x = 0; x < in.size; ++x) wrong += value(back.at(x, y, c), cfg, c) != in.at(c, y, x);
    EXPECT_EQ(wrong, 0) << "values whose pixel does not normalise back to them";
}

TEST(InputImage, GivesBackThePixelsOfARealPhotosInput) {
    const PreprocessConfig cfg = testing::default_model_preprocess();
    const Input in = preprocess(load_image(testing::asset("dog.jpg")), cfg);
    const Image back = input_as_image(in, cfg);
    expect_pixels_of(in, back, cfg, timm_value);
    // Not a constant picture: the photo's range of values is there.
    const auto [lo, hi] = std::minmax_element(back.rgb.begin(), back.rgb.end());
    EXPECT_LT(*lo, 30);
    EXPECT_GT(*hi, 225);
}

TEST(InputImage, ImageNetMeanAndStd) {
    PreprocessConfig cfg = testing::default_model_preprocess();
    cfg.mean = {0.485f, 0.456f, 0.406f};
    cfg.std = {0.229f, 0.224f, 0.225f};
    const Input in = preprocess(load_image(testing::asset("chelsea.png")), cfg);
    expect_pixels_of(in, input_as_image(in, cfg), cfg, timm_value);
}

TEST(InputImage, HuggingFaceRescaleAndNormalisation) {
    for (bool normalize : {true, false})
        for (double rescale : {1.0 / 255.0, 1.0 / 127.5}) {
            PreprocessConfig cfg;
            cfg.mean = {0.5f, 0.4f, 0.3f};
            cfg.std = {0.2f, 0.25f, 0.3f};
            cfg.hf = HfImageProcessor{};
            cfg.hf->do_normalize = normalize;
            cfg.hf->rescale_factor = rescale;
            const Input in = preprocess(load_image(testing::asset("dog.jpg")), cfg);
            expect_pixels_of(in, input_as_image(in, cfg), cfg, hf_value);
        }
}

TEST(InputImage, AMosaicIsThePhotosPatchesMoved) {
    const PreprocessConfig cfg = testing::default_model_preprocess();
    const Input in = preprocess(load_image(testing::asset("dog.jpg")), cfg);
    const int patch = 16, grid = in.size / patch;
    const PatchPermutation p = random_patch_permutation(grid * grid, 7);
    const Image photo = input_as_image(in, cfg), mosaic = input_as_image(permute_patches(in, patch, p), cfg);
    int wrong = 0;
    for (int src = 0; src < grid * grid; ++src) {
        const int dst = p.to[src];
        for (int y = 0; y < patch; ++y)
            for (int x = 0; x < patch; ++x)
                for (int c = 0; c < 3; ++c)
                    wrong += photo.at((src % grid) * patch + x, (src / grid) * patch + y, c) !=
                             mosaic.at((dst % grid) * patch + x, (dst / grid) * patch + y, c);
    }
    EXPECT_EQ(wrong, 0);
}

TEST(InputImage, OutOfRangeValuesAreClampedAndBadSizesRefused) {
    PreprocessConfig cfg = testing::default_model_preprocess();
    Input in;
    in.size = 1;
    in.chw = {-5.f, 5.f, 0.2f};  // far below 0, far above 255, and (0.2 * 0.5 + 0.5) * 255 = 153
    const Image back = input_as_image(in, cfg);
    EXPECT_EQ(back.rgb[0], 0);
    EXPECT_EQ(back.rgb[1], 255);
    EXPECT_EQ(back.rgb[2], 153);
    in.chw.pop_back();
    EXPECT_THROW(input_as_image(in, cfg), Error);
}

}  // namespace
}  // namespace vit
