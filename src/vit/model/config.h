// What a model folder's config.json (and HF preprocessor_config.json) say,
// reduced to the fields the forward pass and preprocessing need.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace vit {

// The files read_model_config reads in a model folder.
inline constexpr const char* kConfigFileName = "config.json";
inline constexpr const char* kPreprocessorFileName = "preprocessor_config.json";  // Hugging Face's, optional

// A Hugging Face image processor as transformers runs it with PIL
// (ViTImageProcessor, DeiTImageProcessor, BitImageProcessor): resize, centre
// crop, rescale, normalise, each step only when its do_* flag says so.
struct HfImageProcessor {
    std::string name;  // "ViTImageProcessor", "DeiTImageProcessor" or "BitImageProcessor"
    bool do_resize = true;
    int shortest_edge = 0;    // > 0: the shorter side goes to this length, aspect kept;
    int resize_height = 224;  // otherwise the photo is squashed to exactly
    int resize_width = 224;   // resize_height x resize_width
    bool do_center_crop = false;
    int crop_height = 224, crop_width = 224;
    bool do_rescale = true;
    double rescale_factor = 1.0 / 255.0;  // as Python reads it: a double
    bool do_normalize = true;             // with PreprocessConfig::mean and std
    std::string defaults_note;            // set when preprocessor_config.json is absent: whose values these are
};

struct PreprocessConfig {
    int input_size = 224;                   // square model input, pixels
    float crop_pct = 0.875f;                // timm: shorter side is resized to floor(input_size / crop_pct)
    std::string interpolation = "bicubic";  // PIL's filter: "bicubic", "bilinear" or "nearest"
    std::array<float, 3> mean{0.485f, 0.456f, 0.406f};
    std::array<float, 3> std{0.229f, 0.224f, 0.225f};
    std::optional<HfImageProcessor> hf;  // set: transformers' pipeline instead of timm's eval transform
};

// How position embeddings trained for one grid are resized to another, as the
// library the model comes from does it: torch.nn.functional.interpolate with
// mode="bicubic", align_corners=False, size=(grid, grid), and antialias on or off.
enum class PosResize {
    Bicubic,           // transformers' ViT, DeiT, DINO and Dinov2 (since 4.45, size= rather than scale_factor=)
    BicubicAntialias,  // timm's resample_abs_pos_embed (every timm ViT) and transformers' Dinov2WithRegisters
};

struct ModelConfig {
    std::string name;        // architecture or model_type, for display
    std::string source;      // "timm" or "hf" (which config flavour was read)
    std::string model_type;  // HF model_type ("vit", "deit", "dinov2", "dinov2_with_registers", ...); empty for timm
    int image_size = 224;
    int patch_size = 16;
    int dim = 0;  // 0 = not stated, taken from the weights
    int depth = 0;
    int heads = 0;
    std::string heads_from;  // where the head count comes from, for `info` and the window: the weights cannot show it
    bool heads_checked = false;  // confirmed by the architecture name, not only stated by config.json
    int mlp_dim = 0;
    int num_classes = -1;  // timm's num_classes; -1 = not stated
    float ln_eps = 1e-6f;
    bool gelu_tanh = false;      // approximate GELU if the config says so
    int num_registers = -1;      // register tokens the config implies; -1 = it does not say (the weights decide)
    std::string registers_from;  // where that number comes from, for messages ("num_register_tokens", ...)
    bool layer_scale = false;    // the architecture scales both residual branches in every block (DINOv2):
                                 // their weights must be in the checkpoint
    PosResize pos_resize = PosResize::BicubicAntialias;
    std::vector<std::string> labels;  // class names in index order (may be empty)
    std::string labels_source;        // where the names came from, for `info`; empty when there are none
    PreprocessConfig pre;
};

// Reads DIR/config.json (and DIR/preprocessor_config.json when present).
// Throws vit::Error with a one-line message on a missing or malformed file.
ModelConfig read_model_config(const std::string& dir);
// The same from JSON text (fuzzing and tests); preprocessor_json may be empty.
ModelConfig parse_model_config(const std::string& config_json, const std::string& preprocessor_json);

}  // namespace vit
