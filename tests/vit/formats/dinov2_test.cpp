// DINOv2 with and without registers, in the hub's layouts: the hub's own
// config.json files (../shared/hub_configs) beside synthetic weights of exactly
// the shapes those repositories hold, loaded and run at 224 px; configs that
// disagree with their weights refused; token names; the two resize kernels'
// properties (their numbers against NumPy and torch: pos_embed_test.py).
#include <gtest/gtest.h>

#include "support/load_error.h"

#include <nlohmann/json.hpp>

#include "support/default_model.h"
#include "support/hub_configs.h"
#include "support/scratch_dir.h"
#include "support/synthetic_model.h"
#include "vit/base/error.h"
#include "vit/formats/checkpoint.h"
#include "vit/forward/forward.h"
#include "vit/forward/token_name.h"
#include "vit/image/image.h"
#include "vit/image/preprocess.h"
#include "vit/model/config.h"
#include "vit/model/model.h"
#include "vit/model/pos_embed.h"

namespace vit {
namespace {

using json = nlohmann::json;
using testing::ScratchDir;
using testing::SyntheticSpec;

// A DINOv2 ViT of the hub's sizes: patch 14, 518 px (37 x 37), 12 blocks, MLP 4x, no head.
SyntheticSpec hub_spec(int dim, int heads, int registers) {
    SyntheticSpec s;
    s.dim = dim;
    s.heads = heads;
    s.depth = 12;
    s.patch = 14;
    s.image = 518;
    s.mlp_dim = 4 * dim;
    s.classes = 0;
    s.registers = registers;
    s.layer_scale = true;
    return s;
}

struct HubCase {
    std::string label;
    std::string config;  // config.json's text
    std::string scheme;  // weights layout: "dinov2" (transformers) or "timm"
    testing::TimmPos timm_pos = testing::TimmPos::ClsAndGrid;
    int dim = 384, heads = 6, registers = 0;
    PosResize pos_resize = PosResize::Bicubic;
};

std::string edited(const std::string& config, const json& changes) {
    json j = json::parse(config);
    j.update(changes);
    return j.dump(2);
}

std::vector<HubCase> hub_cases() {
    const std::string small = testing::hub_config("facebook__dinov2-small");
    const std::string timm_reg4 = testing::hub_config("timm__vit_small_patch14_reg4_dinov2.lvd142m");
    return {
        {"facebook/dinov2-small", small, "dinov2"},
        {"facebook/dinov2-base", testing::hub_config("facebook__dinov2-base"), "dinov2", {}, 768, 12},
        // No hub file of dinov2-with-registers-small was found: dinov2-small's, as Dinov2WithRegistersConfig.
        {"dinov2-with-registers-small (dinov2-small's config as Dinov2WithRegisters)",
         edited(small, {{"model_type", "dinov2_with_registers"},
                        {"architectures", {"Dinov2WithRegistersModel"}},
                        {"num_register_tokens", 4}}),
         "dinov2",
         {},
         384,
         6,
         4,
         PosResize::BicubicAntialias},
        {"timm/vit_small_patch14_reg4_dinov2.lvd142m", timm_reg4, "timm", testing::TimmPos::GridOnly, 384, 6, 4,
         PosResize::BicubicAntialias},
        {"timm vit_small_patch14_dinov2 (the reg4 config renamed)",
         edited(timm_reg4, {{"architecture", "vit_small_patch14_dinov2"}}), "timm", testing::TimmPos::ClsAndGrid, 384,
         6, 0, PosResize::BicubicAntialias},
    };
}

TEST(HubDinov2, ConfigsLoadWithWeightsOfTheirShapesAndRunAt224) {
    const Image photo = load_image(testing::asset("dog.jpg"));
    for (const HubCase& c : hub_cases()) {
        SCOPED_TRACE(c.label);
        ScratchDir dir("dinov2");
        long long params = 0;
        {
            Model canonical = testing::make_synthetic_model(hub_spec(c.dim, c.heads, c.registers));
            if (c.timm_pos == testing::TimmPos::GridOnly) canonical.pos.row(0).setZero();  // no_embed_class
            params = canonical.parameter_count();
            write_safetensors(dir.file("model.safetensors"),
                              testing::scheme_tensors(canonical, c.scheme, DType::F16, c.timm_pos));
            testing::write_bytes(dir.file("config.json"), c.config);
        }
        const Model m = load_model(dir.str());
        EXPECT_EQ(m.scheme, c.scheme);
        EXPECT_EQ(m.dim, c.dim);
        EXPECT_EQ(m.heads, c.heads);
        EXPECT_EQ(m.depth, 12);
        EXPECT_EQ(m.mlp_dim, 4 * c.dim);
        EXPECT_EQ(m.patch, 14);
        EXPECT_EQ(m.pos_grid, 37);
        EXPECT_EQ(m.pos.rows(), 1 + 37 * 37);
        EXPECT_EQ(m.num_registers, c.registers);
        EXPECT_EQ(m.num_classes(), 0);
        EXPECT_EQ(m.parameter_count(), params);
        for (const Block& b : m.blocks) EXPECT_TRUE(b.ls1.size() == c.dim && b.ls2.size() == c.dim);
        EXPECT_EQ(m.config.pos_resize, c.pos_resize);

        // transformers' configs come with BitImageProcessor's 256 -> 224; timm's says 518, run here at 224.
        const Input input = preprocess(photo, m.config.pre, 224);
        ASSERT_EQ(input.size, 224);
        TraceOptions keep_little{false, true, false};
        const Trace t = forward(m, input, keep_little);
        EXPECT_EQ(t.grid, 16);
        EXPECT_EQ(t.prefix, 1 + c.registers);
        EXPECT_EQ(t.tokens, 1 + c.registers + 256);
        EXPECT_EQ(t.registers, c.registers);
        EXPECT_EQ(token_name(t, 0), "CLS");
        for (int r = 0; r < c.registers; ++r) EXPECT_EQ(token_name(t, 1 + r), "reg " + std::to_string(r));
        EXPECT_EQ(token_name(t, t.prefix), "patch (0, 0)");
        EXPECT_EQ(token_name(t, t.tokens - 1), "patch (15, 15)");
        const Mat& a = t.layers[11].heads[0].attn;
        ASSERT_EQ(a.rows(), t.tokens);
        EXPECT_NEAR(a.row(0).sum(), 1.0f, 1e-4f);
        EXPECT_TRUE(a.allFinite());
    }
}

TEST(HubDinov2, SmallLoadsToTheWeightsWritten) {
    const Model canonical = testing::make_synthetic_model(hub_spec(384, 6, 0));
    ScratchDir dir("dinov2");
    write_safetensors(dir.file("model.safetensors"), testing::scheme_tensors(canonical, "dinov2", DType::F16));
    testing::write_bytes(dir.file("config.json"), testing::hub_config("facebook__dinov2-small"));
    EXPECT_EQ(testing::first_difference(load_model(dir.str()), testing::rounded(canonical, DType::F16)), "");
}

TEST(HubDinov2, ConfigsSayWhatTheLibrariesBuild) {
    const ModelConfig small = parse_model_config(testing::hub_config("facebook__dinov2-small"), "");
    EXPECT_EQ(small.model_type, "dinov2");
    EXPECT_EQ(small.num_registers, 0);
    EXPECT_TRUE(small.layer_scale);
    EXPECT_EQ(small.mlp_dim, 1536);
    EXPECT_EQ(small.patch_size, 14);
    EXPECT_EQ(small.image_size, 518);
    EXPECT_EQ(small.pos_resize, PosResize::Bicubic);
    EXPECT_EQ(small.pre.hf->shortest_edge, 256);
    EXPECT_EQ(small.pre.input_size, 224);

    const ModelConfig reg4 = parse_model_config(testing::hub_config("timm__vit_small_patch14_reg4_dinov2.lvd142m"), "");
    EXPECT_EQ(reg4.source, "timm");
    EXPECT_EQ(reg4.num_registers, 4);
    EXPECT_TRUE(reg4.layer_scale);
    EXPECT_EQ(reg4.pos_resize, PosResize::BicubicAntialias);
    EXPECT_EQ(reg4.dim, 384);
    EXPECT_EQ(reg4.heads, 6);
    EXPECT_EQ(reg4.pre.input_size, 518);
    EXPECT_FLOAT_EQ(reg4.pre.crop_pct, 1.0f);
    EXPECT_EQ(reg4.num_classes, 0);

    // Dinov2WithRegisters is its own class, not dinov2 by prefix: 4 registers by default, antialiased resize.
    const ModelConfig with_reg = parse_model_config(
        R"({"model_type": "dinov2_with_registers", "hidden_size": 384, "num_attention_heads": 6, "mlp_ratio": 4})", "");
    EXPECT_EQ(with_reg.num_registers, 4);
    EXPECT_EQ(with_reg.pos_resize, PosResize::BicubicAntialias);
    EXPECT_EQ(with_reg.pre.hf->name, "BitImageProcessor");
    EXPECT_FLOAT_EQ(with_reg.ln_eps, 1e-6f);
    const ModelConfig by_architecture = parse_model_config(
        R"({"architectures": ["Dinov2WithRegistersModel"], "hidden_size": 384, "num_register_tokens": 2})", "");
    EXPECT_EQ(by_architecture.model_type, "dinov2_with_registers");
    EXPECT_EQ(by_architecture.num_registers, 2);

    // int(hidden_size * mlp_ratio), as transformers and timm compute it (not rounded).
    EXPECT_EQ(parse_model_config(R"({"model_type": "dinov2", "hidden_size": 100, "mlp_ratio": 2.557})", "").mlp_dim,
              255);
    // A timm name without dinov2 or regN says nothing about either.
    const ModelConfig plain = parse_model_config(R"({"architecture": "vit_tiny_patch16_224"})", "");
    EXPECT_EQ(plain.num_registers, -1);
    EXPECT_FALSE(plain.layer_scale);
}

// parse_model_config must refuse with a one-line message naming every cause.
void expect_config_refused(const std::string& config, const std::vector<std::string>& causes) {
    try {
        parse_model_config(config, "");
        FAIL() << "accepted " << config;
    } catch (const Error& e) {
        const std::string msg = e.what();
        EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
        for (const std::string& c : causes)
            EXPECT_NE(msg.find(c), std::string::npos) << "'" << c << "' not in: " << msg;
    }
}

TEST(HubDinov2, SwiGLUIsRefused) {
    expect_config_refused(testing::hub_config("facebook__dinov2-giant"), {"use_swiglu_ffn", "SwiGLU"});
    expect_config_refused(R"({"architecture": "vit_giant_patch14_reg4_dinov2"})",
                          {"vit_giant_patch14_reg4_dinov2", "SwiGLU"});
    expect_config_refused(R"({"model_type": "dinov2", "num_register_tokens": 4, "use_swiglu_ffn": true})", {"SwiGLU"});
    expect_config_refused(R"({"model_type": "dinov2_with_registers", "num_register_tokens": -1})",
                          {"num_register_tokens"});
    expect_config_refused(R"({"model_type": "dinov2", "layerscale_value": "one"})", {"layerscale_value"});
}

// ---- configs that disagree with their weights ------------------------------

// A small synthetic DINOv2 (layer scale, `registers` registers) written in `scheme` beside `config`.
void write_small(const ScratchDir& dir, const std::string& scheme, int registers, const std::string& config,
                 bool layer_scale = true, testing::TimmPos timm_pos = testing::TimmPos::ClsAndGrid) {
    SyntheticSpec s;
    s.classes = 0;
    s.registers = registers;
    s.layer_scale = layer_scale;
    Model m = testing::make_synthetic_model(s);
    if (timm_pos == testing::TimmPos::GridOnly) m.pos.row(0).setZero();
    testing::write_checkpoint(m, dir.str(), scheme, DType::F32, timm_pos);
    testing::write_bytes(dir.file("config.json"), config);
}

// A transformers config of the small synthetic model's sizes.
std::string hf_config(const std::string& model_type, const json& extra = json::object()) {
    json j = {{"model_type", model_type}, {"hidden_size", 32}, {"num_hidden_layers", 2}, {"num_attention_heads", 2},
              {"mlp_ratio", 2},           {"image_size", 32},  {"patch_size", 8}};
    j.update(extra);
    return j.dump();
}

// A timm config naming `architecture`, with the small synthetic model's heads and input size.
std::string timm_config(const std::string& architecture) {
    return json{{"architecture", architecture}, {"model_args", {{"num_heads", 2}, {"img_size", 32}}}}.dump();
}

TEST(HubDinov2, RegisterCountMustAgree) {
    ScratchDir dir("dinov2");
    write_small(dir, "dinov2", 2, hf_config("dinov2_with_registers", {{"num_register_tokens", 4}}));
    testing::expect_load_error(dir.str(), {"4 register tokens", "num_register_tokens", "weights have 2",
                                           "embeddings.register_tokens"});

    write_small(dir, "dinov2", 0, hf_config("dinov2_with_registers"));  // the default, 4
    testing::expect_load_error(dir.str(), {"4 register tokens", "default 4", "none"});

    write_small(dir, "dinov2", 4, hf_config("dinov2"));
    testing::expect_load_error(dir.str(), {"0 register tokens", "model_type dinov2", "weights have 4"});

    write_small(dir, "timm", 0, timm_config("vit_synthetic_patch8_reg4_dinov2"));
    testing::expect_load_error(dir.str(), {"4 register tokens", "reg4", "none", "reg_token"});

    write_small(dir, "timm", 4, timm_config("vit_synthetic_patch8_dinov2"), true, testing::TimmPos::GridOnly);
    testing::expect_load_error(dir.str(), {"0 register tokens", "no 'regN'", "weights have 4"});

    // Agreeing counts load.
    write_small(dir, "dinov2", 4, hf_config("dinov2_with_registers"));
    EXPECT_EQ(load_model(dir.str()).num_registers, 4);
    write_small(dir, "timm", 4, timm_config("vit_synthetic_patch8_reg4_dinov2"), true, testing::TimmPos::GridOnly);
    EXPECT_EQ(load_model(dir.str()).num_registers, 4);
}

TEST(HubDinov2, LayerScaleMustBeThereWhenTheArchitectureHasIt) {
    ScratchDir dir("dinov2");
    // transformers' Dinov2Layer always has layer_scale1/2: weights without them are refused
    // (transformers would leave them at layerscale_value and warn that they are untrained).
    write_small(dir, "dinov2", 0, hf_config("dinov2", {{"layerscale_value", 1.0}}), false);
    testing::expect_load_error(dir.str(), {"model_type dinov2", "layer scale", "encoder.layer.0.layer_scale1.lambda1",
                                           "is missing", "layerscale_value"});
    // timm builds vit_*_dinov2 with init_values: ls1.gamma / ls2.gamma.
    write_small(dir, "timm", 0, timm_config("vit_synthetic_patch8_dinov2"), false);
    testing::expect_load_error(dir.str(), {"vit_synthetic_patch8_dinov2", "layer scale", "blocks.0.ls1.gamma"});

    // Layer scale in some blocks only.
    {
        SyntheticSpec s;
        s.classes = 0;
        s.layer_scale = true;
        Model m = testing::make_synthetic_model(s);
        m.blocks[1].ls2.resize(0);
        write_safetensors(dir.file("model.safetensors"), testing::scheme_tensors(m, "timm", DType::F32));
        testing::write_bytes(dir.file("config.json"), testing::config_json(m, "timm"));
    }
    testing::expect_load_error(dir.str(), {"blocks.1.ls2.gamma", "is missing", "other layer-scale weights"});
}

TEST(HubDinov2, ModelTypeMustMatchTheLayout) {
    ScratchDir dir("dinov2");
    write_small(dir, "dinov2", 0, hf_config("vit"));
    testing::expect_load_error(dir.str(), {"model_type 'vit'", "dinov2"});
    SyntheticSpec s;
    s.classes = 0;
    testing::write_checkpoint(testing::make_synthetic_model(s), dir.str(), "hf-dino", DType::F32);
    testing::write_bytes(dir.file("config.json"), hf_config("dinov2"));
    testing::expect_load_error(dir.str(), {"model_type 'dinov2'", "hf-dino"});
}

// ---- token names and the resize kernels -----------------------------------

TEST(TokenName, NamesEveryKindOfToken) {
    Trace t;
    t.grid = 3;
    t.dist_tokens = 1;
    t.registers = 2;
    t.prefix = 4;
    t.tokens = 4 + 9;
    EXPECT_EQ(token_name(t, 0), "CLS");
    EXPECT_EQ(token_name(t, 1), "dist");
    EXPECT_EQ(token_name(t, 2), "reg 0");
    EXPECT_EQ(token_name(t, 3), "reg 1");
    EXPECT_EQ(token_name(t, 4), "patch (0, 0)");
    EXPECT_EQ(token_name(t, 9), "patch (1, 2)");
    EXPECT_EQ(prefix_token_name(4, 0, 4), "reg 3");
    EXPECT_EQ(prefix_token_name(1, 0, 0), "token 1");  // a prefix the layout does not explain
}

TEST(PosResize, WeightsSumToOneAndTheTrainedGridStays) {
    for (PosResize how : {PosResize::Bicubic, PosResize::BicubicAntialias})
        for (auto [in, out] :
             {std::pair{37, 16}, std::pair{37, 40}, std::pair{14, 28}, std::pair{5, 2}, std::pair{1, 3}}) {
            const ResizeTaps taps = bicubic_taps(in, out, how);
            ASSERT_EQ(taps.first.size(), static_cast<size_t>(out));
            for (int o = 0; o < out; ++o) {
                float sum = 0;
                for (float w : taps.weights[o]) sum += w;
                EXPECT_NEAR(sum, 1.0f, 1e-6f) << in << "->" << out << " output " << o;
                EXPECT_GE(taps.first[o], 0);
                EXPECT_LE(taps.first[o] + static_cast<int>(taps.weights[o].size()), in);
            }
        }
    Mat field = Mat::Random(37 * 37, 3);
    EXPECT_EQ(resize_grid(field, 37, 37, PosResize::BicubicAntialias), field);
    EXPECT_THROW(resize_grid(field, 36, 16, PosResize::Bicubic), Error);
}

TEST(PosResize, AntialiasingWidensTheKernelWhenShrinking) {
    // 37 -> 16: antialias=False reads 4 taps, antialias=True 2 x 2 x 37/16 (9 or 10) taps.
    const ResizeTaps plain = bicubic_taps(37, 16, PosResize::Bicubic);
    const ResizeTaps wide = bicubic_taps(37, 16, PosResize::BicubicAntialias);
    EXPECT_EQ(plain.weights[8].size(), 4u);
    EXPECT_GE(wide.weights[8].size(), 9u);
    EXPECT_LE(wide.weights[8].size(), 10u);
    // Upsampling: both 4 wide inside the grid, with different kernels (A = -0.75 against a = -0.5).
    const ResizeTaps up_plain = bicubic_taps(37, 40, PosResize::Bicubic);
    const ResizeTaps up_aa = bicubic_taps(37, 40, PosResize::BicubicAntialias);
    EXPECT_GT(std::abs(up_plain.weights[20][0] - up_aa.weights[20][0]), 1e-3f);
}

}  // namespace
}  // namespace vit
