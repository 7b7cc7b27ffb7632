// What a model folder's config.json (and HF preprocessor_config.json) say,
// reduced to the fields the forward pass and preprocessing need.
#pragma once
#include <array>
#include <string>
#include <vector>

namespace vit {

struct PreprocessConfig {
    int input_size = 224;        // square model input, pixels
    float crop_pct = 0.875f;     // shorter side is resized to floor(input_size / crop_pct)
    std::string interpolation = "bicubic";  // "bicubic" or "bilinear"
    std::array<float, 3> mean{0.485f, 0.456f, 0.406f};
    std::array<float, 3> std{0.229f, 0.224f, 0.225f};
};

struct ModelConfig {
    std::string name;            // architecture or model_type, for display
    std::string source;          // "timm" or "hf" (which config flavour was read)
    int image_size = 224;
    int patch_size = 16;
    int dim = 0;                 // 0 = not stated, taken from the weights
    int depth = 0;
    int heads = 0;
    int mlp_dim = 0;
    float ln_eps = 1e-6f;
    bool gelu_tanh = false;      // approximate GELU if the config says so
    std::vector<std::string> labels;  // class names in index order (may be empty)
    PreprocessConfig pre;
};

// Reads DIR/config.json (and DIR/preprocessor_config.json when present).
// Throws vit::Error with a one-line message on a missing or malformed file.
ModelConfig read_model_config(const std::string& dir);
// The same from JSON text (fuzzing and tests); preprocessor_json may be empty.
ModelConfig parse_model_config(const std::string& config_json, const std::string& preprocessor_json);

}  // namespace vit
