// The files of a model folder by name: the one place the weight files'
// names are spelt. Every lookup (find_weight_file, the training runs'
// checkpoints, the Learning lab) and every message that names them reads
// them here; config.json's own name is vit/model/config.h's.
#pragma once
#include <array>
#include <string>

#include "vit/model/config.h"

namespace vit {

// The weight files a model folder may hold, in the order they are looked for:
// safetensors, else PyTorch's zip checkpoint (torch.save).
inline constexpr std::array<const char*, 2> kWeightFileNames = {"model.safetensors", "pytorch_model.bin"};
// The one vitscope writes (vitscope train's checkpoints).
inline constexpr const char* kSafetensorsFileName = kWeightFileNames[0];
// The one read as a torch.save checkpoint; the others are safetensors.
inline constexpr const char* kTorchFileName = kWeightFileNames[1];

// The names joined by `separator`, in that order: "model.safetensors or pytorch_model.bin".
std::string weight_file_names(const std::string& separator = " or ");
// What a model folder holds, for messages: "model.safetensors or pytorch_model.bin, and config.json".
std::string model_folder_contents();
// A name of kWeightFileNames.
bool is_weight_file_name(const std::string& name);

}  // namespace vit
