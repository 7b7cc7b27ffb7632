// Reading a model folder: the weights in any of the naming schemes vitscope
// knows (timm, Hugging Face ViT/DeiT/DINO/DINOv2), matched to the config.
#pragma once
#include <string>

#include "vit/model/model.h"

namespace vit {

// Loads DIR/model.safetensors (or, when there is none, DIR/pytorch_model.bin) +
// DIR/config.json, detects the naming scheme from the tensor names, checks
// every shape against the config. Throws vit::Error.
Model load_model(const std::string& dir);

// What load_model checks before reading anything: DIR is a folder holding
// config.json and a weight file (model.safetensors or pytorch_model.bin).
// Returns the weight file's path; throws vit::Error naming what is missing.
// Lessons check their model with it, so they open every model --model opens.
std::string check_model_folder(const std::string& dir);

}  // namespace vit
