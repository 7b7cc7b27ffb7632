// preprocess with a Hugging Face image processor (PreprocessConfig::hf): the
// steps of transformers' ViT/DeiT/BitImageProcessor with PIL, checked here on
// hand-sized cases (squash, crop offsets and padding as transformers'
// center_crop rounds them, rescale, normalise, --size); the sample photos and
// the hub's preprocessor files are checked against a NumPy/PIL
// reimplementation in tests/vit/image/preprocess_hf_pil_test.py.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "vit/base/error.h"
#include "vit/image/image.h"
#include "vit/image/preprocess.h"
#include "support/preprocess_checks.h"
#include "vit/model/config.h"

namespace {

using vit::testing::expect_crop;
using vit::testing::pattern;

const std::string kVitConfig =
    R"({"model_type": "vit", "hidden_size": 32, "num_attention_heads": 2, "image_size": 224})";

vit::PreprocessConfig processor(const std::string& preprocessor_json, const std::string& config = kVitConfig) {
    return vit::parse_model_config(config, preprocessor_json).pre;
}

// rescale (float64 product, then float32) and normalize (float32), as transformers does.
float hf_value(uint8_t v, float mean, float std) { return (static_cast<float>(v * (1.0 / 255.0)) - mean) / std; }

TEST(PreprocessHf, SquashKeepsTheWholePhoto) {
    // ViTImageProcessor: 400 x 300 squashed to 224 x 224; the patches cover the whole photo in 400/14 x 300/14 cells.
    const vit::PreprocessConfig cfg = processor(R"({"size": {"height": 224, "width": 224}, "resample": 2})");
    const vit::Image photo = pattern(400, 300);
    const vit::Input input = vit::preprocess(photo, cfg);
    ASSERT_EQ(input.size, 224);
    expect_crop(input.crop, 0, 0, 400, 300);
    const vit::Image squashed = vit::resize_pil(photo, 224, 224, "bilinear");
    for (int y = 0; y < 224; y += 37)
        for (int x = 0; x < 224; x += 29)
            for (int c = 0; c < 3; ++c) ASSERT_EQ(input.at(c, y, x), hf_value(squashed.at(x, y, c), 0.5f, 0.5f));
}

TEST(PreprocessHf, IntSizeIsASquareForViTAndDeiT) {
    const vit::PreprocessConfig vit_cfg =
        processor(R"({"size": 224, "feature_extractor_type": "ViTFeatureExtractor"})");
    expect_crop(vit::preprocess(pattern(300, 200), vit_cfg).crop, 0, 0, 300, 200);
    // DeiT: squash to 256 x 256, then crop 224 from (16, 16) of the squashed photo.
    const vit::PreprocessConfig deit = processor(R"({"size": 256, "crop_size": 224, "do_center_crop": true,
        "feature_extractor_type": "DeiTFeatureExtractor", "resample": 3})");
    const vit::Input input = vit::preprocess(pattern(512, 300), deit);
    expect_crop(input.crop, 16 * 2.0, 16 * 300.0 / 256, 224 * 2.0, 224 * 300.0 / 256);
}

TEST(PreprocessHf, ShortestEdgeKeepsTheAspectRatio) {
    // BitImageProcessor: 600 x 400 -> shorter side 256, longer int(256 * 600 / 400) = 384; crop 224 at (80, 16).
    const vit::PreprocessConfig cfg = processor(R"({"image_processor_type": "BitImageProcessor",
        "size": {"shortest_edge": 256}, "crop_size": {"height": 224, "width": 224}, "resample": 3})");
    const vit::Image photo = pattern(600, 400);
    const vit::Input input = vit::preprocess(photo, cfg);
    const double s = 384.0 / 600;
    expect_crop(input.crop, 80 / s, 16 / (256.0 / 400), 224 / s, 224 / (256.0 / 400));
    const vit::Image resized = vit::resize_pil(photo, 384, 256, "bicubic");
    for (int c = 0; c < 3; ++c) {  // no image_mean / image_std in the file: BitImageProcessor's own (CLIP's)
        EXPECT_EQ(input.at(c, 0, 0), hf_value(resized.at(80, 16, c), cfg.mean[c], cfg.std[c]));
        EXPECT_EQ(input.at(c, 223, 223), hf_value(resized.at(303, 239, c), cfg.mean[c], cfg.std[c]));
    }
    EXPECT_FLOAT_EQ(cfg.mean[0], 0.48145466f);
}

TEST(PreprocessHf, CropOffsetFloorsWhereTorchvisionRounds) {
    // No resize, crop 224 of 259: transformers starts at (259 - 224) // 2 = 17; torchvision's round(17.5) would be 18.
    const vit::PreprocessConfig cfg = processor(R"({"image_processor_type": "DeiTImageProcessor", "do_resize": false,
        "crop_size": 224, "image_mean": 0, "image_std": 1})");
    const vit::Image photo = pattern(259, 259);
    const vit::Input input = vit::preprocess(photo, cfg);
    expect_crop(input.crop, 17, 17, 224, 224);
    for (int c = 0; c < 3; ++c) {
        EXPECT_EQ(input.at(c, 0, 0), static_cast<float>(photo.at(17, 17, c) * (1.0 / 255.0)));
        EXPECT_EQ(input.at(c, 223, 223), static_cast<float>(photo.at(240, 240, c) * (1.0 / 255.0)));
    }
}

TEST(PreprocessHf, PadsBeforeTheCropAsTransformersDoes) {
    // 201 x 250 photo, crop 224: 23 columns missing, ceil(23 / 2) = 12 zero columns go before it (torchvision: 11).
    const vit::PreprocessConfig cfg = processor(R"({"image_processor_type": "DeiTImageProcessor", "do_resize": false,
        "crop_size": 224})");
    const vit::Image photo = pattern(201, 250);
    const vit::Input input = vit::preprocess(photo, cfg);
    expect_crop(input.crop, -12, 13, 224, 224);  // rows: (250 - 224) // 2 = 13
    for (int c = 0; c < 3; ++c) {
        EXPECT_EQ(input.at(c, 5, 11), hf_value(0, 0.5f, 0.5f));  // padding is pixel value 0, rescaled and normalised
        EXPECT_EQ(input.at(c, 5, 12), hf_value(photo.at(0, 18, c), 0.5f, 0.5f));
        EXPECT_EQ(input.at(c, 5, 212), hf_value(photo.at(200, 18, c), 0.5f, 0.5f));
        EXPECT_EQ(input.at(c, 5, 213), hf_value(0, 0.5f, 0.5f));
    }
}

TEST(PreprocessHf, RescaleAndNormaliseAreHonoured) {
    const vit::Image photo = pattern(224, 224);  // no resize needed: values map one to one
    const vit::Input raw = vit::preprocess(photo, processor(R"({"do_rescale": false, "do_normalize": false})"));
    const vit::Input half =
        vit::preprocess(photo,
                        processor(R"({"rescale_factor": 0.5, "image_mean": [1, 2, 3], "image_std": [2, 4, 8]})"));
    const vit::Input plain = vit::preprocess(photo, processor(R"({"do_normalize": false})"));
    for (int c = 0; c < 3; ++c) {
        const uint8_t v = photo.at(10, 20, c);
        EXPECT_EQ(raw.at(c, 20, 10), static_cast<float>(v));
        EXPECT_EQ(half.at(c, 20, 10), (static_cast<float>(v * 0.5) - (c + 1.0f)) / static_cast<float>(2 << c));
        EXPECT_EQ(plain.at(c, 20, 10), static_cast<float>(v * (1.0 / 255.0)));
    }
}

TEST(PreprocessHf, OtherInputSizeScalesEveryLength) {
    // --size 448 for shortest edge 256 + crop 224: shortest edge 512, crop 448.
    const vit::PreprocessConfig bit = processor(R"({"image_processor_type": "BitImageProcessor",
        "size": {"shortest_edge": 256}, "crop_size": 224})");
    const vit::Input input = vit::preprocess(pattern(800, 600), bit, 448);
    ASSERT_EQ(input.size, 448);
    const double s = 512.0 / 600;  // 800 x 600 -> 682 x 512, crop at ((682 - 448) // 2, 32) = (117, 32)
    expect_crop(input.crop, 117 * (800.0 / 682), 32 / s, 448 * (800.0 / 682), 448 / s);
    // A squash goes to the new size: the whole photo still.
    expect_crop(vit::preprocess(pattern(300, 200), processor(R"({"size": 224})"), 160).crop, 0, 0, 300, 200);
}

TEST(PreprocessHf, NoResizeNoCropTakesASquarePhotoAsItIs) {
    const vit::PreprocessConfig cfg = processor(R"({"do_resize": false})");
    const vit::Input input = vit::preprocess(pattern(96, 96), cfg);
    EXPECT_EQ(input.size, 96);
    expect_crop(input.crop, 0, 0, 96, 96);
    EXPECT_THROW(vit::preprocess(pattern(96, 80), cfg), vit::Error);      // not square: refused
    EXPECT_THROW(vit::preprocess(pattern(96, 96), cfg, 64), vit::Error);  // cannot be resized to --size
}

TEST(PreprocessHf, HugeTargetsAreRefusedBeforeAllocating) {
    // Would be 100000 x 100000 px (30 GB): refused by size, not by running out of memory.
    EXPECT_THROW(vit::preprocess(pattern(8, 8), processor(R"({"image_processor_type": "DeiTImageProcessor",
        "size": 100000, "crop_size": 224})")),
                 vit::Error);
    EXPECT_THROW(vit::preprocess(pattern(8, 8), processor(R"({"image_processor_type": "DeiTImageProcessor",
        "size": 224, "crop_size": 100000})")),
                 vit::Error);
    EXPECT_THROW(vit::preprocess(pattern(100000, 2), processor(R"({"image_processor_type": "BitImageProcessor",
        "size": 224})")),
                 vit::Error);  // shortest edge 224: 11 200 000 x 224 px
}

TEST(PreprocessHf, NearestResample) {
    const vit::Image photo = pattern(448, 448);
    const vit::Input input = vit::preprocess(photo, processor(R"({"resample": 0, "do_normalize": false})"));
    for (int c = 0; c < 3; ++c)  // halving: output pixel i reads input pixel int(2i + 1)
        EXPECT_EQ(input.at(c, 100, 7), static_cast<float>(photo.at(15, 201, c) * (1.0 / 255.0)));
}

TEST(PreprocessHf, DescribedInWords) {
    EXPECT_EQ(vit::describe_preprocessing(processor(R"({"size": 224, "resample": 2})")),
              "ViTImageProcessor: resize to 224 x 224 (aspect not kept), bilinear (PIL), rescale 1/255, "
              "normalise mean (0.5, 0.5, 0.5) std (0.5, 0.5, 0.5)");
    EXPECT_EQ(vit::describe_preprocessing(processor(R"({"image_processor_type": "BitImageProcessor",
        "size": {"shortest_edge": 256}, "crop_size": 224, "image_mean": [0.485, 0.456, 0.406],
        "image_std": [0.229, 0.224, 0.225], "rescale_factor": 0.5})")),
              "BitImageProcessor: resize shorter side to 256 (aspect kept), bicubic (PIL), centre crop 224 x 224, "
              "rescale x 0.5, normalise mean (0.485, 0.456, 0.406) std (0.229, 0.224, 0.225)");
    EXPECT_EQ(
        vit::describe_preprocessing(processor(R"({"do_rescale": false, "do_normalize": false})")),
        "ViTImageProcessor: resize to 224 x 224 (aspect not kept), bilinear (PIL), no rescale (pixel values 0..255), "
        "no normalisation");
}

}  // namespace
