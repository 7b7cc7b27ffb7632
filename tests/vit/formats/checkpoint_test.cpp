// load_model: the same synthetic model written in every naming scheme and
// dtype loads to the same canonical model and runs to the same numbers; broken
// folders are refused with one-line messages; the real default model loads.
#include <gtest/gtest.h>

#include "support/preprocess_checks.h"
#include "support/load_error.h"

#include "support/default_model.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/random_input.h"
#include "support/scratch_dir.h"
#include "support/synthetic_model.h"
#include "vit/base/error.h"
#include "vit/formats/checkpoint.h"
#include "vit/formats/safetensors.h"
#include "vit/forward/forward.h"
#include "vit/model/model.h"

namespace vit {
namespace {

using testing::resize_of;

namespace fs = std::filesystem;
using json = nlohmann::json;
using testing::ScratchDir;
using testing::SyntheticSpec;

// Synthetic models and the schemes able to hold each.
struct Family {
    std::string name;
    SyntheticSpec spec;
    std::vector<std::string> schemes;
};

std::vector<Family> families() {
    SyntheticSpec plain;
    SyntheticSpec headless;
    headless.classes = 0;
    SyntheticSpec deit;
    deit.dist_token = true;
    SyntheticSpec deit_headless = deit;
    deit_headless.classes = 0;
    SyntheticSpec dinov2;
    dinov2.classes = 0;
    dinov2.layer_scale = true;
    SyntheticSpec dinov2_reg = dinov2;
    dinov2_reg.registers = 4;
    return {{"plain", plain, {"timm", "hf-vit"}},   {"headless", headless, {"timm", "hf-dino"}},
            {"deit", deit, {"timm", "hf-deit"}},    {"deit-headless", deit_headless, {"timm", "hf-deit"}},
            {"dinov2", dinov2, {"timm", "dinov2"}}, {"dinov2-registers", dinov2_reg, {"timm", "dinov2"}}};
}

const char* dtype_name(DType d) { return d == DType::F32 ? "F32" : d == DType::F16 ? "F16" : "BF16"; }

using testing::expect_load_error;

TEST(CheckpointTest, EverySchemeAndDtypeLoadsTheSameModel) {
    for (const Family& f : families()) {
        const Model canonical = testing::make_synthetic_model(f.spec);
        for (const std::string& scheme : f.schemes) {
            for (DType dtype : {DType::F32, DType::F16, DType::BF16}) {
                SCOPED_TRACE(f.name + " / " + scheme + " / " + dtype_name(dtype));
                ScratchDir dir("ckpt");
                testing::write_checkpoint(canonical, dir.str(), scheme, dtype);
                const Model m = load_model(dir.str());
                EXPECT_EQ(m.scheme, scheme);
                // Rounding through the dtype is the only change loading may make.
                EXPECT_EQ(testing::first_difference(m, testing::rounded(canonical, dtype)), "");
                EXPECT_EQ(m.parameter_count(), canonical.parameter_count());
                const ModelConfig& c = m.config;
                EXPECT_EQ(c.source, scheme == "timm" ? "timm" : "hf");
                EXPECT_EQ(c.dim, 32);
                EXPECT_EQ(c.depth, 2);
                EXPECT_EQ(c.heads, 2);
                EXPECT_EQ(c.mlp_dim, 64);
                EXPECT_EQ(c.patch_size, 8);
                EXPECT_EQ(c.image_size, 32);
                EXPECT_FLOAT_EQ(c.ln_eps, 1e-6f);
                EXPECT_FALSE(c.gelu_tanh);
                EXPECT_EQ(c.labels, canonical.config.labels);
                EXPECT_EQ(c.pre.input_size, 32);
                EXPECT_EQ(resize_of(c.pre), 40);
                EXPECT_EQ(c.pre.interpolation, "bicubic");
                EXPECT_EQ(c.pre.mean, canonical.config.pre.mean);
                EXPECT_EQ(c.pre.std, canonical.config.pre.std);
                EXPECT_EQ(m.pos_grid, 4);
                EXPECT_EQ(m.prefix_tokens(), canonical.prefix_tokens());
            }
        }
    }
}

TEST(CheckpointTest, DetectsHuggingFacePrefixes) {
    // DeiT without the teacher head: "deit." prefix and a plain classifier.
    SyntheticSpec spec;
    spec.dist_token = true;
    Model canonical = testing::make_synthetic_model(spec);
    canonical.head_dist = Linear{Mat(0, 32), Vec(), {}};
    ScratchDir dir("ckpt");
    testing::write_checkpoint(canonical, dir.str(), "hf-deit", DType::F32);
    const Model m = load_model(dir.str());
    EXPECT_EQ(m.scheme, "hf-deit");
    EXPECT_TRUE(m.has_dist_token);
    EXPECT_EQ(m.head_dist.w.rows(), 0);
    EXPECT_EQ(testing::first_difference(m, canonical), "");
}

TEST(CheckpointTest, TimmPositionEmbeddingsWithoutClassRows) {
    // timm no_embed_class: pos_embed covers the grid only; CLS gets no position.
    Model canonical = testing::make_synthetic_model({});
    canonical.pos.row(0).setZero();
    ScratchDir dir("ckpt");
    testing::write_checkpoint(canonical, dir.str(), "timm", DType::F32, testing::TimmPos::GridOnly);
    const Model m = load_model(dir.str());
    EXPECT_EQ(m.pos.rows(), 17);
    EXPECT_EQ(testing::first_difference(m, canonical), "");
}

TEST(CheckpointTest, TimmRegisterPositionsFoldIntoRegisters) {
    SyntheticSpec spec;
    spec.registers = 4;
    spec.layer_scale = true;
    spec.classes = 0;
    const Model canonical = testing::make_synthetic_model(spec);
    ScratchDir dir("ckpt");
    testing::write_checkpoint(canonical, dir.str(), "timm", DType::F32, testing::TimmPos::WithRegisters);
    const Model m = load_model(dir.str());
    EXPECT_EQ(m.num_registers, 4);
    EXPECT_EQ(m.pos.rows(), 17);
    EXPECT_EQ(testing::first_difference(m, canonical, 1e-6f), "");
}

using testing::random_input;

// Largest absolute difference between two same-sized matrices (inf when sizes differ).
template <class A, class B>
float max_diff(const A& a, const B& b) {
    if (a.rows() != b.rows() || a.cols() != b.cols()) return INFINITY;
    return a.size() ? (a - b).cwiseAbs().maxCoeff() : 0.0f;
}

TEST(CheckpointTest, EverySchemeRunsToTheSameNumbers) {
    const Input input = random_input(32, 42);
    for (const Family& f : families()) {
        const Model canonical = testing::make_synthetic_model(f.spec);
        const Trace expected = forward(canonical, input);
        ASSERT_EQ(expected.layers.size(), 2u);
        EXPECT_EQ(expected.logits.size(), f.spec.classes);
        for (const std::string& scheme : f.schemes) {
            SCOPED_TRACE(f.name + " / " + scheme);
            ScratchDir dir("ckpt");
            testing::write_checkpoint(canonical, dir.str(), scheme, DType::F32);
            const Trace t = forward(load_model(dir.str()), input);
            ASSERT_EQ(t.tokens, expected.tokens);
            EXPECT_EQ(t.prefix, expected.prefix);
            EXPECT_LE(max_diff(t.logits, expected.logits), 1e-5f);
            EXPECT_LE(max_diff(t.final_tokens, expected.final_tokens), 1e-5f);
            for (size_t l = 0; l < t.layers.size(); ++l)
                for (size_t h = 0; h < t.layers[l].heads.size(); ++h) {
                    EXPECT_LE(max_diff(t.layers[l].heads[h].attn, expected.layers[l].heads[h].attn), 1e-6f)
                        << l << "," << h;
                    EXPECT_LE(max_diff(t.layers[l].heads[h].q, expected.layers[l].heads[h].q), 1e-5f) << l << "," << h;
                }
        }
    }
}

// ---- refusals -------------------------------------------------------------

// A valid timm checkpoint of the default synthetic model.
void write_good(const ScratchDir& dir, const std::string& scheme = "timm") {
    testing::write_checkpoint(testing::make_synthetic_model({}), dir.str(), scheme, DType::F32);
}

// Rewrites DIR/config.json through `edit`.
template <class F>
void edit_config(const ScratchDir& dir, F edit) {
    json j = json::parse(testing::config_json(testing::make_synthetic_model({}), "timm"));
    edit(j);
    testing::write_bytes(dir.file("config.json"), j.dump());
}

// Writes the synthetic model's tensors after `edit` changed the list.
template <class F>
void edit_tensors(const ScratchDir& dir, F edit, const std::string& scheme = "timm") {
    write_good(dir, scheme);
    auto tensors = testing::scheme_tensors(testing::make_synthetic_model({}), scheme, DType::F32);
    edit(tensors);
    write_safetensors(dir.file("model.safetensors"), tensors);
}

TEST(CheckpointTest, RejectsMissingFolder) {
    ScratchDir dir("ckpt");
    expect_load_error(dir.file("absent"), {dir.file("absent"), "model folder not found"});
}

TEST(CheckpointTest, RejectsFileInsteadOfFolder) {
    ScratchDir dir("ckpt");
    testing::write_bytes(dir.file("model.safetensors"), "x");
    expect_load_error(dir.file("model.safetensors"), {"not a folder"});
}

TEST(CheckpointTest, RejectsMissingSafetensors) {
    ScratchDir dir("ckpt");
    write_good(dir);
    fs::remove(dir.file("model.safetensors"));
    expect_load_error(dir.str(), {dir.file("model.safetensors"), "not found"});
}

TEST(CheckpointTest, RejectsMissingConfig) {
    ScratchDir dir("ckpt");
    write_good(dir);
    fs::remove(dir.file("config.json"));
    expect_load_error(dir.str(), {dir.file("config.json"), "not found"});
}

TEST(CheckpointTest, RejectsEmptySafetensors) {
    ScratchDir dir("ckpt");
    write_good(dir);
    testing::write_bytes(dir.file("model.safetensors"), "");
    expect_load_error(dir.str(), {dir.file("model.safetensors"), "0 bytes"});
}

TEST(CheckpointTest, RejectsTruncatedSafetensors) {
    ScratchDir dir("ckpt");
    write_good(dir);
    fs::resize_file(dir.file("model.safetensors"), fs::file_size(dir.file("model.safetensors")) - 100);
    expect_load_error(dir.str(), {dir.file("model.safetensors"), "outside the data section", "truncated"});
}

TEST(CheckpointTest, RejectsHeaderLengthBeyondFile) {
    ScratchDir dir("ckpt");
    write_good(dir);
    testing::write_bytes(dir.file("model.safetensors"), testing::safetensors_bytes("{}", "", 1 << 20));
    expect_load_error(dir.str(), {dir.file("model.safetensors"), "header length 1048576", "past the end"});
}

TEST(CheckpointTest, RejectsBadJsonHeader) {
    ScratchDir dir("ckpt");
    write_good(dir);
    testing::write_bytes(dir.file("model.safetensors"), testing::safetensors_bytes("{\"cls_token\": {", ""));
    expect_load_error(dir.str(), {dir.file("model.safetensors"), "not valid JSON"});
}

TEST(CheckpointTest, RejectsUnknownDtype) {
    ScratchDir dir("ckpt");
    write_good(dir);
    testing::write_bytes(
        dir.file("model.safetensors"),
        testing::safetensors_bytes(R"({"cls_token":{"dtype":"I64","shape":[1,1,32],"data_offsets":[0,256]}})",
                                   std::string(256, '\0')));
    expect_load_error(dir.str(), {"'cls_token'", "dtype I64"});
}

TEST(CheckpointTest, RejectsTensorOutOfBounds) {
    ScratchDir dir("ckpt");
    write_good(dir);
    testing::write_bytes(dir.file("model.safetensors"),
                         testing::safetensors_bytes(
                             R"({"blocks.0.attn.qkv.weight":{"dtype":"F32","shape":[2],"data_offsets":[4096,4104]}})",
                             std::string(64, '\0')));
    expect_load_error(dir.str(), {"'blocks.0.attn.qkv.weight'", "[4096, 4104)", "outside"});
}

TEST(CheckpointTest, RejectsOverlappingTensors) {
    ScratchDir dir("ckpt");
    write_good(dir);
    testing::write_bytes(
        dir.file("model.safetensors"),
        testing::safetensors_bytes(R"({"cls_token":{"dtype":"F32","shape":[1,1,4],"data_offsets":[0,16]},)"
                                   R"("pos_embed":{"dtype":"F32","shape":[1,1,4],"data_offsets":[8,24]}})",
                                   std::string(24, '\0')));
    expect_load_error(dir.str(), {"'cls_token'", "'pos_embed'", "overlap"});
}

TEST(CheckpointTest, RejectsMissingTensor) {
    ScratchDir dir("ckpt");
    edit_tensors(dir, [](auto& t) {
        std::erase_if(t, [](const TensorToWrite& x) { return x.name == "blocks.1.mlp.fc2.weight"; });
    });
    expect_load_error(dir.str(), {"tensor 'blocks.1.mlp.fc2.weight' is missing", "timm"});
}

TEST(CheckpointTest, RejectsMissingTensorInHuggingFaceScheme) {
    ScratchDir dir("ckpt");
    edit_tensors(
        dir,
        [](auto& t) {
            std::erase_if(t, [](const TensorToWrite& x) {
                return x.name == "vit.encoder.layer.0.attention.attention.key.bias";
            });
        },
        "hf-vit");
    expect_load_error(dir.str(), {"tensor 'vit.encoder.layer.0.attention.attention.key.bias' is missing", "hf-vit"});
}

TEST(CheckpointTest, RejectsWrongTensorShape) {
    ScratchDir dir("ckpt");
    edit_tensors(dir, [](auto& t) {
        for (TensorToWrite& x : t)
            if (x.name == "blocks.0.norm2.bias") x = {x.name, x.dtype, {16}, std::vector<float>(16, 0.0f)};
    });
    expect_load_error(dir.str(), {"'blocks.0.norm2.bias'", "[16]", "expected [32]"});
}

TEST(CheckpointTest, RejectsHeadsNotDividingWidth) {
    ScratchDir dir("ckpt");
    write_good(dir);
    edit_config(dir, [](json& j) { j["model_args"]["num_heads"] = 3; });
    expect_load_error(dir.str(), {"not divisible by 3 heads"});
}

TEST(CheckpointTest, RejectsDepthMismatch) {
    ScratchDir dir("ckpt");
    write_good(dir);
    edit_config(dir, [](json& j) { j["model_args"]["depth"] = 12; });
    expect_load_error(dir.str(), {"config depth 12", "2 blocks"});
}

TEST(CheckpointTest, RejectsWidthMismatch) {
    ScratchDir dir("ckpt");
    write_good(dir);
    edit_config(dir, [](json& j) { j["model_args"]["embed_dim"] = 64; });
    expect_load_error(dir.str(), {"config width 64", "32 wide"});
}

TEST(CheckpointTest, RejectsPositionEmbeddingsNotMatchingGrid) {
    ScratchDir dir("ckpt");
    write_good(dir);
    edit_config(dir, [](json& j) { j["pretrained_cfg"]["input_size"] = {3, 48, 48}; });
    expect_load_error(dir.str(), {"'pos_embed'", "[1, 17, 32]", "expected [1, 37, 32]", "6x6 grid"});
}

TEST(CheckpointTest, RejectsPatchSizeMismatch) {
    ScratchDir dir("ckpt");
    write_good(dir);
    edit_config(dir, [](json& j) { j["model_args"]["patch_size"] = 16; });
    expect_load_error(dir.str(), {"patch size 16", "8x8"});
}

TEST(CheckpointTest, RejectsMissingHeadCount) {
    ScratchDir dir("ckpt");
    write_good(dir);
    edit_config(dir, [](json& j) { j["model_args"].erase("num_heads"); });
    expect_load_error(dir.str(), {"number of attention heads"});
}

TEST(CheckpointTest, RejectsLabelCountMismatch) {
    ScratchDir dir("ckpt");
    write_good(dir);
    edit_config(dir, [](json& j) { j["label_names"].push_back("extra"); });
    expect_load_error(dir.str(), {"names 11 classes", "classifier has 10"});
}

TEST(CheckpointTest, RejectsUnknownNamingScheme) {
    ScratchDir dir("ckpt");
    write_good(dir);
    write_safetensors(dir.file("model.safetensors"), {{"transformer.wte.weight", DType::F32, {2}, {1, 2}},
                                                      {"transformer.h.0.ln_1.weight", DType::F32, {2}, {1, 2}}});
    expect_load_error(dir.str(), {"unknown naming scheme",
                                  "first tensor names: transformer.h.0.ln_1.weight, transformer.wte.weight"});
}

TEST(CheckpointTest, RejectsUnexpectedTensor) {
    // A timm model with fc_norm pools differently; running it as a plain ViT would be wrong.
    ScratchDir dir("ckpt");
    edit_tensors(dir, [](auto& t) { t.push_back({"fc_norm.weight", DType::F32, {32}, std::vector<float>(32, 1.0f)}); });
    expect_load_error(dir.str(), {"unexpected tensor 'fc_norm.weight'"});
}

TEST(CheckpointTest, RejectsMalformedConfig) {
    ScratchDir dir("ckpt");
    write_good(dir);
    testing::write_bytes(dir.file("config.json"), "{\"architecture\": \"vit_tiny_patch16_224\",");
    expect_load_error(dir.str(), {dir.file("config.json"), "not valid JSON"});
}

TEST(CheckpointTest, RejectsMalformedPreprocessorConfig) {
    ScratchDir dir("ckpt");
    write_good(dir, "hf-vit");
    testing::write_bytes(dir.file("preprocessor_config.json"), "{\"size\": ");
    expect_load_error(dir.str(), {dir.file("preprocessor_config.json"), "not valid JSON"});
    testing::write_bytes(dir.file("preprocessor_config.json"), "");
    expect_load_error(dir.str(), {dir.file("preprocessor_config.json") + ": is empty"});
}

// ---- the real default model -------------------------------------------------

TEST(CheckpointTest, LoadsTheRealDefaultModel) {
    const fs::path dir = vit::testing::default_model_dir();
    const Model m = load_model(dir.string());
    EXPECT_EQ(m.scheme, "timm");
    EXPECT_EQ(m.depth, 12);
    EXPECT_EQ(m.heads, 3);
    EXPECT_EQ(m.head_dim, 64);
    EXPECT_EQ(m.dim, 192);
    EXPECT_EQ(m.mlp_dim, 768);
    EXPECT_EQ(m.patch, 16);
    EXPECT_EQ(m.pos_grid, 14);
    EXPECT_EQ(m.prefix_tokens(), 1);
    EXPECT_EQ(m.num_classes(), 1000);
    EXPECT_EQ(m.config.labels.size(), 1000u);
    EXPECT_EQ(m.config.labels.at(285), "Egyptian cat");
    EXPECT_FLOAT_EQ(m.config.ln_eps, 1e-6f);
    EXPECT_EQ(m.config.pre.input_size, 224);
    EXPECT_EQ(resize_of(m.config.pre), 248);
    EXPECT_EQ(m.parameter_count(), 5717416);  // timm's count for vit_tiny_patch16_224

    // ... which is every element stored in the file.
    const SafeTensors st((dir / "model.safetensors").string());
    long long stored = 0;
    for (const auto& [name, info] : st.tensors()) stored += info.numel();
    EXPECT_EQ(stored, 5717416);
}

}  // namespace
}  // namespace vit
