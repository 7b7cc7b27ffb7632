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

}  // namespace vit
