// A tiny ViT as a model folder in the default model's layout: config.json
// (timm's: architecture, model_args, pretrained_cfg, label_names) and
// model.safetensors with timm's tensor names, so `--model DIR` and every
// page open it like any model.
#pragma once
#include <string>
#include <vector>

#include "vit/train/tiny_vit.h"

namespace vit::train {

// config.json's text for this model and these class names.
std::string model_config_json(const TinyVitConfig& config, const std::vector<std::string>& labels);
// Writes DIR/config.json and DIR/model.safetensors (DIR must exist).
void write_model_folder(const TinyVit& model, const std::vector<std::string>& labels, const std::string& dir);
// Reads a folder written by write_model_folder back (sizes from its config.json).
TinyVit read_model_folder(const std::string& dir);

}  // namespace vit::train
