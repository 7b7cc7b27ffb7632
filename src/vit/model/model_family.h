// What makes one model family differ from the others: how its config.json
// tells (a timm architecture name, a Hugging Face model_type), the keys it
// adds, its preprocessing defaults, and how its weights are named. Each
// family is one file in src/vit/model/families/ (as llama.cpp keeps one per
// architecture); the generic readers (config.cpp, formats/checkpoint.cpp)
// iterate model_families() and never name a family themselves.
//   timm.cpp     timm's layout (every timm ViT, DeiT and DINOv2 alike)
//   dinov2.cpp   DINOv2 with and without registers (timm names, transformers' Dinov2*)
//   deit.cpp     transformers' DeiT, distilled or not
//   dino.cpp     DINO (transformers' ViTModel without a classifier)
//   hf_vit.cpp   transformers' ViT: the layout the others start from, tried last
#pragma once
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "vit/model/config.h"

namespace vit {

struct ConfigDoc;  // config_doc.h

// Where each canonical weight lives in one naming scheme. Block names are
// relative to block(i); a linear layer name gets ".weight" / ".bias" appended.
struct TensorNames {
    std::string scheme;  // "timm", "hf-vit", "hf-deit", "hf-dino", "dinov2": Model::scheme
    std::string cls, dist, registers, pos, patch_embed, norm, head, head_dist;
    std::string blocks;                                            // prefix before the block index
    std::string ln1, qkv, q, k, v, proj, ls1, ln2, fc1, fc2, ls2;  // qkv set = fused rows q|k|v
    std::vector<std::string> ignored;  // name prefixes that carry nothing the forward pass uses

    std::string block(int i) const { return blocks + std::to_string(i) + "."; }
};

// Whether the weight file holds a tensor of that name.
using HasTensor = std::function<bool(const std::string& name)>;

// What a timm architecture name gives (vit_small_patch14_reg4_dinov2: 384 wide, 6 heads, patch 14, 4 registers).
struct TimmName {
    int dim = 0, heads = 0, patch = 0, image = 0;
    int registers = -1;  // from "regN"; -1 = none in the name
};

// layer_norm_eps when a Hugging Face config.json has none (ViTConfig's).
inline constexpr float kHfLayerNormEps = 1e-12f;

struct ModelFamily {
    const char* name = "";  // "DINOv2"

    // --- config.json, timm's flavour (architecture, pretrained_cfg) ---
    // Whether a timm architecture name is this family's.
    bool (*is_timm_architecture)(const std::string& architecture) = nullptr;
    // Width words whose sizes differ in this family ("giant": 1536 wide, 24 heads).
    std::vector<std::pair<std::string, std::pair<int, int>>> timm_widths = {};
    // What the name implies besides sizes (registers, layer scale); may refuse it.
    void (*read_timm_name)(const ConfigDoc& doc, const TimmName& name, ModelConfig& config) = nullptr;

    // --- config.json, Hugging Face's flavour (model_type, architectures, hidden_size) ---
    std::vector<std::string> hf_model_types = {};  // the model_types that are this family
    // Without model_type: architectures[0] prefixes that give it, first match wins.
    std::vector<std::pair<std::string, std::string>> hf_architectures = {};
    float hf_ln_eps = kHfLayerNormEps;  // layer_norm_eps when config.json has none
    // Its own keys after the common ones (layer scale, registers); null: none, and no SwiGLU MLP.
    void (*read_hf_config)(const ConfigDoc& doc, ModelConfig& config) = nullptr;
    const char* hf_processor = "ViTImageProcessor";  // the image processor its model_type implies
    // Its preprocessing without preprocessor_config.json (null: the processor's defaults).
    void (*hf_default_preprocessing)(PreprocessConfig& pre) = nullptr;

    // --- the weights ---
    // timm's layout, whatever the architecture (null: not this family's to tell).
    std::optional<TensorNames> (*timm_layout)(const HasTensor& has) = nullptr;
    // A Hugging Face layout under the model prefix found ("", "vit.", "deit.", "dinov2.").
    std::optional<TensorNames> (*hf_layout)(const HasTensor& has, const std::string& prefix) = nullptr;
    // A model_type of this family and its layout go together: one without the other is refused.
    bool model_type_fixes_layout = false;
    std::string scheme = "";  // its layout's scheme name, for that check
};

// Every family, in the order their weights' layouts are tried (hf_vit last:
// it takes any Hugging Face layout the others do not).
std::span<const ModelFamily* const> model_families();
// The family of a Hugging Face model_type, or null.
const ModelFamily* family_of_model_type(const std::string& model_type);
// The family whose timm architecture names include this one, or null.
const ModelFamily* family_of_timm_architecture(const std::string& architecture);
// model_type from architectures[0] when config.json has none ("" when no family knows it).
std::string model_type_of_architecture(const std::string& architecture);

// transformers' ViT layout under `prefix`, which DeiT, DINO and DINOv2 start from.
TensorNames hf_vit_tensor_names(const std::string& scheme, const std::string& prefix);

}  // namespace vit
