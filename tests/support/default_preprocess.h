// The default model's preprocessing (vit_tiny_patch16_224.augreg_in21k_ft_in1k:
// shorter side to 248 px bicubic, centre crop 224, mean = std = 0.5), written
// out so tests and fuzzers use it without reading the model's config.json.
#pragma once
#include "vit/model/config.h"

namespace vit::testing {

inline PreprocessConfig default_model_preprocess() {
    PreprocessConfig cfg;
    cfg.input_size = 224;
    cfg.crop_pct = 0.9f;
    cfg.interpolation = "bicubic";
    cfg.mean = {0.5f, 0.5f, 0.5f};
    cfg.std = {0.5f, 0.5f, 0.5f};
    return cfg;
}

}  // namespace vit::testing
