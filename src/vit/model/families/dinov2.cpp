// DINOv2, with and without registers: timm's vit_*_dinov2 (vit_*_regN_dinov2:
// N register tokens) and transformers' Dinov2Model / Dinov2WithRegistersModel
// (model_type dinov2 and dinov2_with_registers, two classes). Every block
// scales both residual branches (layer scale), so those weights must be
// there; the giant's SwiGLU MLP is refused. In transformers' layout a block's
// parts are norm1/norm2 and mlp.fc1/fc2, layer_norm_eps defaults to 1e-6,
// and the image processor is BitImageProcessor: without
// preprocessor_config.json, the settings facebook/dinov2-* ship.
#include "vit/model/config_doc.h"
#include "vit/model/model_family.h"

namespace vit {
namespace {

constexpr const char* kDinov2Scheme = "dinov2";

bool dinov2_timm_architecture(const std::string& architecture) {
    return architecture.find("dinov2") != std::string::npos;
}

// timm builds vit_*_dinov2 with init_values (layer scale), and with registers only for regN.
void dinov2_read_timm_name(const ConfigDoc& d, const TimmName& named, ModelConfig& c) {
    if (named.registers < 0) {
        c.num_registers = 0;
        c.registers_from = "the architecture name " + c.name + " (no 'regN')";
    }
    c.layer_scale = true;
    // timm's fc1/fc2 names hide it: vit_giant_patch14_*dinov2 packs a SwiGLU MLP into them.
    if (c.name.find("giant") != std::string::npos)
        d.fail("architecture " + c.name + " has a SwiGLU MLP (DINOv2 giant), which is not supported");
}

// What Dinov2Config / Dinov2WithRegistersConfig add to a ViT config.
void dinov2_read_hf_config(const ConfigDoc& d, ModelConfig& c) {
    using json = ConfigDoc::json;
    // Dinov2Layer always has layer_scale1 and layer_scale2; layerscale_value
    // is only what transformers starts them at before loading the weights.
    c.layer_scale = true;
    if (const json* v = d.find(d.j, "layerscale_value")) d.get_float(*v, "layerscale_value");
    if (const json* v = d.find(d.j, "use_swiglu_ffn"); v && d.get_bool(*v, "use_swiglu_ffn"))
        d.fail(
            "use_swiglu_ffn is true: the SwiGLU MLP (DINOv2 giant) is not supported, only the GELU MLP "
            "(fc1, fc2) of DINOv2 small, base and large");
    if (c.model_type == "dinov2_with_registers") {
        c.num_registers = 4;  // Dinov2WithRegistersConfig's default
        c.registers_from = "num_register_tokens (default 4) in config.json";
        if (const json* v = d.find(d.j, "num_register_tokens")) {
            c.num_registers = d.get_int(*v, "num_register_tokens");
            if (c.num_registers < 0) d.fail("'num_register_tokens' must not be negative");
            c.registers_from = "num_register_tokens in config.json";
        }
        c.pos_resize = PosResize::BicubicAntialias;  // Dinov2WithRegistersEmbeddings: antialias=True
    } else {
        c.num_registers = 0;  // Dinov2Model has no register tokens
        c.registers_from = "model_type dinov2 (Dinov2Model has none)";
    }
}

// What every facebook/dinov2-* repository ships, rather than
// BitImageProcessor's bare defaults (224, CLIP statistics) that no DINOv2 uses.
void dinov2_default_preprocessing(PreprocessConfig& pre) {
    pre.hf->shortest_edge = 256;
    pre.mean = {0.485f, 0.456f, 0.406f};
    pre.std = {0.229f, 0.224f, 0.225f};
    pre.hf->defaults_note =
        "no preprocessor_config.json: the settings facebook/dinov2-* ship "
        "(BitImageProcessor, shortest edge 256, crop 224, bicubic, ImageNet mean and std)";
}

// Registers, or a first block with norm1 or layer scale.
std::optional<TensorNames> dinov2_layout(const HasTensor& has, const std::string& prefix) {
    const std::string layer0 = prefix + "encoder.layer.0.";
    if (!has(prefix + "embeddings.register_tokens") && !has(layer0 + "norm1.weight") &&
        !has(layer0 + "layer_scale1.lambda1"))
        return std::nullopt;
    TensorNames n = hf_vit_tensor_names(kDinov2Scheme, prefix);
    n.ln1 = "norm1";
    n.ls1 = "layer_scale1.lambda1";
    n.ln2 = "norm2";
    n.fc1 = "mlp.fc1";
    n.fc2 = "mlp.fc2";
    n.ls2 = "layer_scale2.lambda1";
    return n;
}

}  // namespace

const ModelFamily& dinov2_family() {
    static const ModelFamily family{
        .name = "DINOv2",
        .is_timm_architecture = dinov2_timm_architecture,
        .timm_widths = {{"giant", {1536, 24}}},
        .read_timm_name = dinov2_read_timm_name,
        .hf_model_types = {"dinov2", "dinov2_with_registers"},
        // Checked in this order: the longer prefix first.
        .hf_architectures = {{"Dinov2WithRegisters", "dinov2_with_registers"}, {"Dinov2", "dinov2"}},
        .hf_ln_eps = 1e-6f,
        .read_hf_config = dinov2_read_hf_config,
        .hf_processor = "BitImageProcessor",
        .hf_default_preprocessing = dinov2_default_preprocessing,
        .hf_layout = dinov2_layout,
        .model_type_fixes_layout = true,
        .scheme = kDinov2Scheme,
    };
    return family;
}

}  // namespace vit
