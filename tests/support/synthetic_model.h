// Small random ViTs for tests: a canonical vit::Model from a fixed seed, and
// writers that store it as a checkpoint folder (model.safetensors, config.json,
// and for Hugging Face schemes preprocessor_config.json) in any naming scheme
// and dtype, so loading can be checked against the model that was written.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "vit/formats/safetensors.h"
#include "vit/model/model.h"

namespace vit::testing {

struct SyntheticSpec {
    int dim = 32, heads = 2, depth = 2, patch = 8, image = 32, mlp_dim = 64;
    int classes = 10;          // 0: no classifier
    int registers = 0;         // DINOv2-style register tokens
    bool dist_token = false;   // DeiT distillation token (with its own head when classes > 0)
    bool layer_scale = false;  // DINOv2 layer scale
    uint32_t seed = 1234;
};

// A random canonical model; its config states every size, eps 1e-6, exact GELU,
// labels "class N", and preprocessing input = image, crop_pct 0.8, bicubic.
Model make_synthetic_model(const SyntheticSpec& spec);

// How a timm checkpoint lays out its position embeddings (timm has all three).
enum class TimmPos {
    ClsAndGrid,     // [1 + dist + grid^2]: the usual
    GridOnly,       // [grid^2] (no_embed_class): needs zero CLS rows in the model
    WithRegisters,  // [1 + dist + registers + grid^2]: registers get positions too
};

// The model's tensors under one scheme's names: "timm", "hf-vit", "hf-deit",
// "hf-dino", "dinov2". Throws std::invalid_argument when the scheme cannot hold
// the model (e.g. registers in hf-vit, a classifier in hf-dino).
std::vector<TensorToWrite> scheme_tensors(const Model& m, const std::string& scheme, DType dtype,
                                          TimmPos timm_pos = TimmPos::ClsAndGrid);
// config.json in the scheme's flavour (timm or Hugging Face).
std::string config_json(const Model& m, const std::string& scheme);
// Hugging Face preprocessor_config.json giving the model's preprocessing.
std::string preprocessor_json(const Model& m);

// Writes the whole folder (created if needed).
void write_checkpoint(const Model& m, const std::string& dir, const std::string& scheme, DType dtype,
                      TimmPos timm_pos = TimmPos::ClsAndGrid);

// The model with every weight rounded through dtype, as loading it back yields.
Model rounded(const Model& m, DType dtype);

// Every weight of a model by a readable name, for comparisons.
struct ParamView {
    std::string name;
    const float* data;
    long size;
};
std::vector<ParamView> parameters(const Model& m);

// "" when both models hold the same weights (within tol, absolute) and sizes;
// otherwise a description of the first difference.
std::string first_difference(const Model& a, const Model& b, float tol = 0.0f);

// Raw bytes for corrupt-file tests.
void write_bytes(const std::string& path, const std::string& bytes);
// An 8-byte little-endian header length (header_len_override when >= 0), the header, then data.
std::string safetensors_bytes(const std::string& header, const std::string& data, int64_t header_len_override = -1);

}  // namespace vit::testing
