// config.json in the timm and Hugging Face flavours, preprocessor_config.json,
// and one-line refusals of configs that cannot be used.
#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <filesystem>

#include "support/preprocess_checks.h"
#include "support/scratch_dir.h"
#include "support/synthetic_model.h"
#include "vit/base/error.h"
#include "vit/image/preprocess.h"
#include "vit/model/config.h"

namespace vit {
namespace {

using testing::resize_of;

using testing::ScratchDir;
using testing::write_bytes;

// Parsing must fail with a one-line message containing `cause`.
void expect_refused(const std::string& config, const std::string& pre, const std::string& cause) {
    try {
        parse_model_config(config, pre);
        FAIL() << "accepted: " << config;
    } catch (const Error& e) {
        const std::string msg = e.what();
        EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
        EXPECT_NE(msg.find(cause), std::string::npos) << "'" << cause << "' not in: " << msg;
    }
}

TEST(ConfigTest, ReadsTimmConfig) {
    const ModelConfig c = parse_model_config(R"({
        "architecture": "vit_tiny_patch16_224", "global_pool": "token",
        "model_args": {"patch_size": 16, "embed_dim": 192, "depth": 12, "num_heads": 3},
        "pretrained_cfg": {"input_size": [3, 224, 224], "interpolation": "bicubic", "crop_pct": 0.9,
                           "crop_mode": "center", "mean": [0.5, 0.5, 0.5], "std": [0.5, 0.5, 0.5]},
        "label_names": ["tench", "goldfish"]})",
                                             "");
    EXPECT_EQ(c.source, "timm");
    EXPECT_EQ(c.name, "vit_tiny_patch16_224");
    EXPECT_EQ(c.dim, 192);
    EXPECT_EQ(c.depth, 12);
    EXPECT_EQ(c.heads, 3);
    EXPECT_EQ(c.patch_size, 16);
    EXPECT_EQ(c.image_size, 224);
    EXPECT_FLOAT_EQ(c.ln_eps, 1e-6f);
    EXPECT_FALSE(c.gelu_tanh);
    EXPECT_EQ(c.pre.input_size, 224);
    EXPECT_FLOAT_EQ(c.pre.crop_pct, 0.9f);
    EXPECT_EQ(resize_of(c.pre), 248);
    EXPECT_EQ(c.pre.interpolation, "bicubic");
    EXPECT_FLOAT_EQ(c.pre.mean[1], 0.5f);
    EXPECT_FLOAT_EQ(c.pre.std[2], 0.5f);
    EXPECT_EQ(c.labels, (std::vector<std::string>{"tench", "goldfish"}));
}

TEST(ConfigTest, TimmSizesFromArchitectureName) {
    const ModelConfig s = parse_model_config(R"({"architecture": "vit_small_patch14_dinov2"})", "");
    EXPECT_EQ(s.dim, 384);
    EXPECT_EQ(s.heads, 6);
    EXPECT_EQ(s.patch_size, 14);
    EXPECT_EQ(s.depth, 0);  // taken from the weights
    const ModelConfig b = parse_model_config(R"({"architecture": "deit_base_distilled_patch16_384"})", "");
    EXPECT_EQ(b.dim, 768);
    EXPECT_EQ(b.heads, 12);
    EXPECT_EQ(b.patch_size, 16);
    EXPECT_EQ(b.image_size, 384);
    EXPECT_EQ(b.pre.input_size, 384);
    const ModelConfig l = parse_model_config(
        R"({"pretrained_cfg": {"architecture": "vit_large_patch32_224", "input_size": [3, 224, 224]}})", "");
    EXPECT_EQ(l.dim, 1024);
    EXPECT_EQ(l.heads, 16);
    EXPECT_EQ(l.patch_size, 32);
    // Timm defaults when pretrained_cfg says nothing: ImageNet statistics, crop 0.875.
    EXPECT_FLOAT_EQ(s.pre.mean[0], 0.485f);
    EXPECT_FLOAT_EQ(s.pre.crop_pct, 0.875f);
}

TEST(ConfigTest, ReadsHuggingFaceConfigAndPreprocessor) {
    const ModelConfig c =
        parse_model_config(R"({
        "model_type": "vit", "hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12,
        "intermediate_size": 3072, "layer_norm_eps": 1e-12, "image_size": 224, "patch_size": 16,
        "hidden_act": "gelu", "id2label": {"1": "goldfish", "0": "tench"}})",
                           R"({"image_mean": [0.485, 0.456, 0.406], "image_std": [0.229, 0.224, 0.225],
        "image_processor_type": "BitImageProcessor",
        "size": {"shortest_edge": 256}, "crop_size": {"height": 224, "width": 224},
        "do_center_crop": true, "resample": 3})");
    EXPECT_EQ(c.source, "hf");
    EXPECT_EQ(c.name, "vit");
    EXPECT_EQ(c.dim, 768);
    EXPECT_EQ(c.depth, 12);
    EXPECT_EQ(c.heads, 12);
    EXPECT_EQ(c.mlp_dim, 3072);
    EXPECT_FLOAT_EQ(c.ln_eps, 1e-12f);
    EXPECT_EQ(c.labels, (std::vector<std::string>{"tench", "goldfish"}));
    ASSERT_TRUE(c.pre.hf);
    EXPECT_EQ(c.pre.hf->name, "BitImageProcessor");
    EXPECT_EQ(c.pre.input_size, 224);
    EXPECT_EQ(resize_of(c.pre), 256);
    EXPECT_TRUE(c.pre.hf->do_center_crop);
    EXPECT_EQ(c.pre.hf->crop_height, 224);
    EXPECT_EQ(c.pre.interpolation, "bicubic");
    EXPECT_FLOAT_EQ(c.pre.std[0], 0.229f);
    EXPECT_EQ(c.pre.hf->defaults_note, "");
}

TEST(ConfigTest, HuggingFaceResizeToSquareHasNoCrop) {
    const std::string config =
        R"({"model_type": "vit", "hidden_size": 64, "num_attention_heads": 4, "image_size": 224})";
    // ViTImageProcessor has no crop step: do_center_crop and crop_size mean nothing to it.
    const ModelConfig a = parse_model_config(
        config, R"({"size": {"height": 224, "width": 224}, "resample": 2, "do_center_crop": true, "crop_size": 200})");
    ASSERT_TRUE(a.pre.hf);
    EXPECT_EQ(a.pre.hf->name, "ViTImageProcessor");
    EXPECT_EQ(a.pre.input_size, 224);
    EXPECT_EQ(a.pre.hf->shortest_edge, 0);
    EXPECT_EQ(a.pre.hf->resize_height, 224);
    EXPECT_FALSE(a.pre.hf->do_center_crop);
    EXPECT_EQ(a.pre.interpolation, "bilinear");
    const ModelConfig b = parse_model_config(config, R"({"size": 384})");
    EXPECT_EQ(b.pre.input_size, 384);
    EXPECT_EQ(b.pre.hf->resize_width, 384);
    // No preprocessor_config.json: ViTImageProcessor's defaults, and a note saying so.
    const ModelConfig d = parse_model_config(config, "");
    ASSERT_TRUE(d.pre.hf);
    EXPECT_EQ(d.pre.input_size, 224);
    EXPECT_EQ(d.pre.hf->resize_height, 224);
    EXPECT_FALSE(d.pre.hf->do_center_crop);
    EXPECT_EQ(d.pre.interpolation, "bilinear");
    EXPECT_FLOAT_EQ(d.pre.mean[0], 0.5f);
    EXPECT_FLOAT_EQ(d.pre.std[2], 0.5f);
    EXPECT_EQ(d.pre.hf->defaults_note, "no preprocessor_config.json: ViTImageProcessor's defaults");
    EXPECT_FLOAT_EQ(d.ln_eps, 1e-12f);  // HF ViTConfig's default
}

TEST(ConfigTest, HuggingFaceActivationAndDinov2Defaults) {
    EXPECT_TRUE(parse_model_config(R"({"model_type": "vit", "hidden_act": "gelu_new"})", "").gelu_tanh);
    EXPECT_TRUE(parse_model_config(R"({"model_type": "vit", "hidden_act": "gelu_pytorch_tanh"})", "").gelu_tanh);
    const ModelConfig d = parse_model_config(R"({"model_type": "dinov2", "hidden_size": 384, "mlp_ratio": 4,
        "num_attention_heads": 6, "image_size": 518, "patch_size": 14})",
                                             "");
    EXPECT_FLOAT_EQ(d.ln_eps, 1e-6f);
    EXPECT_EQ(d.mlp_dim, 1536);
    EXPECT_EQ(d.image_size, 518);
    EXPECT_EQ(d.pre.input_size, 224);
    EXPECT_EQ(resize_of(d.pre), 256);
    EXPECT_EQ(d.pre.interpolation, "bicubic");
}

TEST(ConfigTest, ReadsModelFolder) {
    ScratchDir dir("cfg");
    const Model m = testing::make_synthetic_model({});
    write_bytes(dir.file("config.json"), testing::config_json(m, "hf-vit"));
    write_bytes(dir.file("preprocessor_config.json"), testing::preprocessor_json(m));
    const ModelConfig c = read_model_config(dir.str());
    EXPECT_EQ(c.dim, 32);
    EXPECT_EQ(c.pre.input_size, 32);
    EXPECT_EQ(resize_of(c.pre), 40);
    EXPECT_FLOAT_EQ(c.pre.std[1], 0.25f);
    EXPECT_EQ(c.labels.size(), 10u);
}

TEST(ConfigTest, RejectsMissingConfig) {
    ScratchDir dir("cfg");
    try {
        read_model_config(dir.str());
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(dir.file("config.json") + ": not found"), std::string::npos) << e.what();
    }
}

// A config.json of 65 MiB (sparse: no disk used) is refused from its size,
// before anything is read or parsed.
TEST(ConfigTest, RejectsAHugeConfigBeforeReadingIt) {
    ScratchDir dir("cfg");
    write_bytes(dir.file("config.json"), "{");
    std::filesystem::resize_file(dir.file("config.json"), 65ULL << 20);
    try {
        read_model_config(dir.str());
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(dir.file("config.json") + ": is 65 MiB, over the 64 MiB limit"),
                  std::string::npos)
            << e.what();
    }
}

TEST(ConfigTest, RejectsMalformedJson) {
    expect_refused("{\"architecture\": \"vit_tiny_patch16_224\",\n \"model_args\": {", "",
                   "config.json: not valid JSON");
}

TEST(ConfigTest, RejectsMalformedPreprocessorJson) {
    expect_refused(R"({"model_type": "vit"})", "{\"size\": ", "preprocessor_config.json: not valid JSON");
}

TEST(ConfigTest, RejectsMalformedConfigFileWithItsPath) {
    ScratchDir dir("cfg");
    write_bytes(dir.file("config.json"), "not json at all");
    try {
        read_model_config(dir.str());
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(dir.file("config.json") + ": not valid JSON"), std::string::npos)
            << e.what();
    }
}

TEST(ConfigTest, RejectsUnknownFlavour) { expect_refused(R"({"foo": 1})", "", "neither a timm config"); }

TEST(ConfigTest, RejectsWrongTypes) {
    expect_refused(R"({"model_type": "vit", "hidden_size": "big"})", "", "'hidden_size' must be an integer");
    expect_refused(R"({"architecture": "x", "label_names": "cat"})", "", "'label_names' must be a list");
    expect_refused(R"({"architecture": "x", "pretrained_cfg": {"mean": [0.5, 0.5]}})", "",
                   "'pretrained_cfg.mean' must list 3");
}

TEST(ConfigTest, RejectsUnsupportedSettings) {
    expect_refused(R"({"model_type": "vit", "hidden_act": "relu"})", "", "hidden_act 'relu'");
    expect_refused(R"({"model_type": "dinov2", "use_swiglu_ffn": true})", "", "use_swiglu_ffn");
    expect_refused(R"({"architecture": "x", "global_pool": "avg"})", "", "global_pool 'avg'");
    expect_refused(R"({"architecture": "x", "pretrained_cfg": {"interpolation": "lanczos"}})", "",
                   "interpolation 'lanczos'");
    expect_refused(R"({"model_type": "vit"})", R"({"resample": 1})", "resample 1");
    expect_refused(R"({"model_type": "vit", "hidden_size": 30, "num_attention_heads": 4})", "",
                   "not divisible by 4 heads");
    expect_refused(R"({"model_type": "vit", "id2label": {"0": "a", "2": "c"}})", "", "no entry for class 1");
    expect_refused(R"({"architecture": "x", "pretrained_cfg": {"input_size": [3, 224, 160]}})", "", "only square");
}

// --- Hugging Face image processors (preprocessor_config.json) ---

const std::string kVit = R"({"model_type": "vit", "hidden_size": 64, "num_attention_heads": 4, "image_size": 224})";

TEST(ConfigHfPreprocessor, RefusesUnsupportedResample) {
    expect_refused(kVit, R"({"resample": 1})",
                   "resample 1 (PIL LANCZOS) is not supported (0 nearest, 2 bilinear or 3 bicubic)");
    expect_refused(kVit, R"({"resample": 4})", "resample 4 (PIL BOX)");
    expect_refused(kVit, R"({"resample": 5})", "resample 5 (PIL HAMMING)");
    expect_refused(kVit, R"({"resample": 9})", "resample 9 is not supported");
    expect_refused(kVit, R"({"resample": -1})", "resample -1 is not supported");
    expect_refused(kVit, R"({"resample": "bilinear"})", "'resample' must be an integer");
    EXPECT_EQ(parse_model_config(kVit, R"({"resample": 0})").pre.interpolation, "nearest");
    EXPECT_EQ(parse_model_config(kVit, R"({"resample": 3})").pre.interpolation, "bicubic");
}

TEST(ConfigHfPreprocessor, RefusesZeroAndNegativeSizes) {
    expect_refused(kVit, R"({"size": 0})", "'size' must be positive, not 0");
    expect_refused(kVit, R"({"size": -224})", "'size' must be positive");
    expect_refused(kVit, R"({"size": {"height": 0, "width": 224}})", "'size' must be positive");
    expect_refused(kVit, R"({"size": [224, -1]})", "'size' must be positive");
    expect_refused(kVit, R"({"image_processor_type": "BitImageProcessor", "size": {"shortest_edge": 0}})",
                   "'size' must be positive");
    expect_refused(kVit, R"({"image_processor_type": "DeiTImageProcessor", "crop_size": 0})",
                   "'crop_size' must be positive");
    expect_refused(kVit, R"({"size": {"height": 224}})", "'size' must be an integer, [height, width]");
    expect_refused(kVit, R"({"rescale_factor": 0})", "'rescale_factor' must be in (0, 10]");
    expect_refused(kVit, R"({"rescale_factor": "1/255"})", "'rescale_factor' must be a number");
}

TEST(ConfigHfPreprocessor, IntSizeFollowsTheProcessor) {
    // ViT and DeiT: an int is {"height": n, "width": n} (get_size_dict's default_to_square);
    // BitImageProcessor's size: an int is the shortest edge.
    const PreprocessConfig vit = parse_model_config(kVit, R"({"size": 384})").pre;
    EXPECT_EQ(vit.hf->resize_height, 384);
    EXPECT_EQ(vit.hf->resize_width, 384);
    EXPECT_EQ(vit.hf->shortest_edge, 0);
    EXPECT_EQ(vit.input_size, 384);
    const PreprocessConfig deit = parse_model_config(kVit, R"({"feature_extractor_type": "DeiTFeatureExtractor",
        "size": 224, "crop_size": 224, "do_center_crop": true, "resample": 3})")
                                      .pre;  // the hub's DeiT files
    EXPECT_EQ(deit.hf->name, "DeiTImageProcessor");
    EXPECT_EQ(deit.hf->resize_height, 224);
    EXPECT_EQ(deit.hf->shortest_edge, 0);
    EXPECT_TRUE(deit.hf->do_center_crop);
    EXPECT_EQ(deit.input_size, 224);
    const PreprocessConfig bit = parse_model_config(kVit, R"({"image_processor_type": "BitImageProcessor", "size": 256,
        "crop_size": 224})")
                                     .pre;
    EXPECT_EQ(bit.hf->shortest_edge, 256);
    EXPECT_EQ(bit.input_size, 224);
    const PreprocessConfig listed = parse_model_config(kVit, R"({"size": [160, 160]})").pre;
    EXPECT_EQ(listed.input_size, 160);
}

TEST(ConfigHfPreprocessor, ShortestEdgeOnlyForBitAndOnlyWithACrop) {
    expect_refused(kVit, R"({"size": {"shortest_edge": 224}})",
                   "'size' {\"shortest_edge\"} is only BitImageProcessor's");
    expect_refused(kVit, R"({"image_processor_type": "DeiTImageProcessor", "size": {"shortest_edge": 256}})",
                   "DeiTImageProcessor resizes to a height and width");
    expect_refused(
        kVit,
        R"({"image_processor_type": "BitImageProcessor", "size": {"shortest_edge": 224}, "do_center_crop": false})",
        "keeps the photo's aspect ratio; vitscope runs square inputs only");
    const PreprocessConfig bit = parse_model_config(kVit, R"({"image_processor_type": "BitImageProcessor",
        "size": {"shortest_edge": 256}, "crop_size": {"height": 224, "width": 224}})")
                                     .pre;
    EXPECT_EQ(bit.hf->shortest_edge, 256);
    EXPECT_EQ(bit.input_size, 224);
    EXPECT_EQ(bit.interpolation, "bicubic");  // BitImageProcessor's default resample
}

TEST(ConfigHfPreprocessor, NonSquareInputsAreRefused) {
    expect_refused(kVit, R"({"size": {"height": 224, "width": 320}})",
                   "size 224 x 320 is not square and nothing crops it");
    expect_refused(kVit,
                   R"({"image_processor_type": "DeiTImageProcessor", "crop_size": {"height": 224, "width": 200}})",
                   "crop_size 224 x 200 is not square");
    // A non-square squash is fine when a square crop follows.
    const PreprocessConfig p = parse_model_config(kVit, R"({"image_processor_type": "DeiTImageProcessor",
        "size": {"height": 256, "width": 320}, "crop_size": 224})")
                                   .pre;
    EXPECT_EQ(p.input_size, 224);
    EXPECT_EQ(p.hf->resize_width, 320);
}

TEST(ConfigHfPreprocessor, ProcessorFromTheFileOrTheModelType) {
    EXPECT_EQ(parse_model_config(kVit, R"({"image_processor_type": "ViTImageProcessorFast"})").pre.hf->name,
              "ViTImageProcessor");
    EXPECT_EQ(parse_model_config(kVit, R"({"feature_extractor_type": "ViTFeatureExtractor"})").pre.hf->name,
              "ViTImageProcessor");
    expect_refused(kVit, R"({"image_processor_type": "CLIPImageProcessor"})",
                   "image_processor_type 'CLIPImageProcessor' is not supported (ViTImageProcessor, DeiTImageProcessor "
                   "or BitImageProcessor)");
    expect_refused(kVit, R"({"feature_extractor_type": "BeitFeatureExtractor"})",
                   "feature_extractor_type 'BeitFeatureExtractor'");
    const std::string deit = R"({"model_type": "deit", "hidden_size": 64, "num_attention_heads": 4})";
    EXPECT_EQ(parse_model_config(deit, "{}").pre.hf->name, "DeiTImageProcessor");
    const std::string dinov2 =
        R"({"model_type": "dinov2_with_registers", "hidden_size": 64, "num_attention_heads": 4})";
    EXPECT_EQ(parse_model_config(dinov2, "{}").pre.hf->name, "BitImageProcessor");
}

TEST(ConfigHfPreprocessor, MissingFileMeansTheProcessorsDefaults) {
    // DeiTImageProcessor(): squash to 256 x 256, crop 224, bicubic, mean = std = 0.5 (IMAGENET_STANDARD).
    const PreprocessConfig deit =
        parse_model_config(R"({"model_type": "deit", "hidden_size": 64, "num_attention_heads": 4})", "").pre;
    EXPECT_EQ(deit.hf->name, "DeiTImageProcessor");
    EXPECT_EQ(deit.hf->resize_height, 256);
    EXPECT_EQ(deit.hf->resize_width, 256);
    EXPECT_TRUE(deit.hf->do_center_crop);
    EXPECT_EQ(deit.input_size, 224);
    EXPECT_EQ(deit.interpolation, "bicubic");
    EXPECT_FLOAT_EQ(deit.mean[0], 0.5f);
    EXPECT_EQ(deit.hf->defaults_note, "no preprocessor_config.json: DeiTImageProcessor's defaults");
    // An empty file is not a missing one: the processor's defaults, but no note.
    const PreprocessConfig empty = parse_model_config(kVit, "{}").pre;
    EXPECT_EQ(empty.hf->defaults_note, "");
    EXPECT_EQ(empty.input_size, 224);
    // DINOv2: the settings its hub repositories ship, and the note says which.
    const PreprocessConfig dinov2 =
        parse_model_config(R"({"model_type": "dinov2", "hidden_size": 64, "num_attention_heads": 4})", "").pre;
    EXPECT_EQ(dinov2.hf->shortest_edge, 256);
    EXPECT_EQ(dinov2.input_size, 224);
    EXPECT_FLOAT_EQ(dinov2.mean[0], 0.485f);
    EXPECT_NE(dinov2.hf->defaults_note.find("facebook/dinov2"), std::string::npos);
}

TEST(ConfigHfPreprocessor, RescaleAndNormaliseFlags) {
    const PreprocessConfig off =
        parse_model_config(kVit, R"({"do_rescale": false, "do_normalize": false, "image_std": 0})").pre;
    EXPECT_FALSE(off.hf->do_rescale);
    EXPECT_FALSE(off.hf->do_normalize);  // a zero std is harmless when nothing is normalised
    const PreprocessConfig half = parse_model_config(kVit, R"({"rescale_factor": 0.00392156862745098})").pre;
    EXPECT_EQ(half.hf->rescale_factor, 1.0 / 255.0);  // read as the double Python reads
    expect_refused(kVit, R"({"image_std": 0})", "std must be at least 0.001");
}

TEST(ConfigHfPreprocessor, DoResizeFalseTakesTheModelSizeAsNominal) {
    const PreprocessConfig p = parse_model_config(kVit, R"({"do_resize": false})").pre;
    EXPECT_FALSE(p.hf->do_resize);
    EXPECT_EQ(p.input_size, 224);
}

TEST(ConfigTest, TimmNumClasses) {
    EXPECT_EQ(parse_model_config(R"({"architecture": "vit_tiny_patch16_224", "num_classes": 1000})", "").num_classes,
              1000);
    EXPECT_EQ(parse_model_config(R"({"architecture": "vit_tiny_patch16_224"})", "").num_classes, -1);
    expect_refused(R"({"architecture": "x", "num_classes": -3})", "", "'num_classes' must not be negative");
    const ModelConfig named = parse_model_config(R"({"architecture": "x", "label_names": ["a", "b"]})", "");
    EXPECT_EQ(named.labels_source, "label_names in config.json");
    EXPECT_EQ(parse_model_config(R"({"architecture": "x"})", "").labels_source, "");
}

}  // namespace
}  // namespace vit
