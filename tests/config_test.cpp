// config.json in the timm and Hugging Face flavours, preprocessor_config.json,
// and one-line refusals of configs that cannot be used.
#include <gtest/gtest.h>

#include <charconv>
#include <cmath>

#include "support/scratch_dir.h"
#include "support/synthetic_model.h"
#include "vit/config.h"
#include "vit/preprocess.h"
#include "vit/error.h"

namespace vit {
namespace {

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

// The shorter side's resize the config implies (floor(input / crop_pct)).
int resize_of(const PreprocessConfig& p) { return resize_side(p, p.input_size); }

TEST(ConfigTest, ReadsTimmConfig) {
    const ModelConfig c = parse_model_config(R"({
        "architecture": "vit_tiny_patch16_224", "global_pool": "token",
        "model_args": {"patch_size": 16, "embed_dim": 192, "depth": 12, "num_heads": 3},
        "pretrained_cfg": {"input_size": [3, 224, 224], "interpolation": "bicubic", "crop_pct": 0.9,
                           "crop_mode": "center", "mean": [0.5, 0.5, 0.5], "std": [0.5, 0.5, 0.5]},
        "label_names": ["tench", "goldfish"]})", "");
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
    const ModelConfig l = parse_model_config(R"({"pretrained_cfg": {"architecture": "vit_large_patch32_224", "input_size": [3, 224, 224]}})", "");
    EXPECT_EQ(l.dim, 1024);
    EXPECT_EQ(l.heads, 16);
    EXPECT_EQ(l.patch_size, 32);
    // Timm defaults when pretrained_cfg says nothing: ImageNet statistics, crop 0.875.
    EXPECT_FLOAT_EQ(s.pre.mean[0], 0.485f);
    EXPECT_FLOAT_EQ(s.pre.crop_pct, 0.875f);
}

TEST(ConfigTest, ReadsHuggingFaceConfigAndPreprocessor) {
    const ModelConfig c = parse_model_config(R"({
        "model_type": "vit", "hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12,
        "intermediate_size": 3072, "layer_norm_eps": 1e-12, "image_size": 224, "patch_size": 16,
        "hidden_act": "gelu", "id2label": {"1": "goldfish", "0": "tench"}})",
                                             R"({"image_mean": [0.485, 0.456, 0.406], "image_std": [0.229, 0.224, 0.225],
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
    EXPECT_EQ(c.pre.input_size, 224);
    EXPECT_EQ(resize_of(c.pre), 256);
    EXPECT_FLOAT_EQ(c.pre.crop_pct, 0.875f);
    EXPECT_EQ(c.pre.interpolation, "bicubic");
    EXPECT_FLOAT_EQ(c.pre.std[0], 0.229f);
}

TEST(ConfigTest, HuggingFaceResizeToSquareHasNoCrop) {
    const std::string config = R"({"model_type": "vit", "hidden_size": 64, "num_attention_heads": 4, "image_size": 224})";
    const ModelConfig a = parse_model_config(config, R"({"size": {"height": 224, "width": 224}, "resample": 2, "do_center_crop": false, "crop_size": 200})");
    EXPECT_EQ(a.pre.input_size, 224);
    EXPECT_FLOAT_EQ(a.pre.crop_pct, 1.0f);
    EXPECT_EQ(a.pre.interpolation, "bilinear");
    const ModelConfig b = parse_model_config(config, R"({"size": 384})");
    EXPECT_EQ(b.pre.input_size, 384);
    // No preprocessor_config.json: ViTImageProcessor's defaults.
    const ModelConfig d = parse_model_config(config, "");
    EXPECT_EQ(d.pre.input_size, 224);
    EXPECT_FLOAT_EQ(d.pre.crop_pct, 1.0f);
    EXPECT_EQ(d.pre.interpolation, "bilinear");
    EXPECT_FLOAT_EQ(d.pre.mean[0], 0.5f);
    EXPECT_FLOAT_EQ(d.ln_eps, 1e-12f);  // HF ViTConfig's default
}

TEST(ConfigTest, CropPctGivesBackTheResizeDespiteRounding) {
    // 32 / 40 = 0.8 is not exact in float; the resize must still come out as 40.
    const std::string config = R"({"model_type": "vit", "hidden_size": 32, "num_attention_heads": 2, "image_size": 32})";
    for (int resize : {33, 36, 37, 40, 41, 64}) {
        const ModelConfig c = parse_model_config(config, R"({"size": {"shortest_edge": )" + std::to_string(resize) +
                                                             R"(}, "crop_size": 32})");
        EXPECT_EQ(resize_of(c.pre), resize);
    }
}

TEST(ConfigTest, HuggingFaceActivationAndDinov2Defaults) {
    EXPECT_TRUE(parse_model_config(R"({"model_type": "vit", "hidden_act": "gelu_new"})", "").gelu_tanh);
    EXPECT_TRUE(parse_model_config(R"({"model_type": "vit", "hidden_act": "gelu_pytorch_tanh"})", "").gelu_tanh);
    const ModelConfig d = parse_model_config(R"({"model_type": "dinov2", "hidden_size": 384, "mlp_ratio": 4,
        "num_attention_heads": 6, "image_size": 518, "patch_size": 14})", "");
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

TEST(ConfigTest, RejectsMalformedJson) {
    expect_refused("{\"architecture\": \"vit_tiny_patch16_224\",\n \"model_args\": {", "", "config.json: invalid JSON");
}

TEST(ConfigTest, RejectsMalformedPreprocessorJson) {
    expect_refused(R"({"model_type": "vit"})", "{\"size\": ", "preprocessor_config.json: invalid JSON");
}

TEST(ConfigTest, RejectsMalformedConfigFileWithItsPath) {
    ScratchDir dir("cfg");
    write_bytes(dir.file("config.json"), "not json at all");
    try {
        read_model_config(dir.str());
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(dir.file("config.json") + ": invalid JSON"), std::string::npos) << e.what();
    }
}

TEST(ConfigTest, RejectsUnknownFlavour) { expect_refused(R"({"foo": 1})", "", "neither a timm config"); }

TEST(ConfigTest, RejectsWrongTypes) {
    expect_refused(R"({"model_type": "vit", "hidden_size": "big"})", "", "'hidden_size' must be an integer");
    expect_refused(R"({"architecture": "x", "label_names": "cat"})", "", "'label_names' must be a list");
    expect_refused(R"({"architecture": "x", "pretrained_cfg": {"mean": [0.5, 0.5]}})", "", "'mean' must list 3");
}

TEST(ConfigTest, RejectsUnsupportedSettings) {
    expect_refused(R"({"model_type": "vit", "hidden_act": "relu"})", "", "hidden_act 'relu'");
    expect_refused(R"({"model_type": "dinov2", "use_swiglu_ffn": true})", "", "use_swiglu_ffn");
    expect_refused(R"({"architecture": "x", "global_pool": "avg"})", "", "global_pool 'avg'");
    expect_refused(R"({"architecture": "x", "pretrained_cfg": {"interpolation": "lanczos"}})", "", "interpolation 'lanczos'");
    expect_refused(R"({"model_type": "vit"})", R"({"resample": 1})", "resample 1");
    expect_refused(R"({"model_type": "vit", "hidden_size": 30, "num_attention_heads": 4})", "", "not divisible by 4 heads");
    expect_refused(R"({"model_type": "vit", "id2label": {"0": "a", "2": "c"}})", "", "no entry for class 1");
    expect_refused(R"({"architecture": "x", "pretrained_cfg": {"input_size": [3, 224, 160]}})", "", "only square");
}

}  // namespace
}  // namespace vit
