// Where the default model is looked for when no --model is given: one lookup
// for the program and its tests.
#pragma once
#include <string>

namespace vit {

constexpr const char* kDefaultModelName = "vit_tiny_patch16_224.augreg_in21k_ft_in1k";

// $VITSCOPE_MODEL, else models/<default> beside the working directory, else
// models/<default> in project_dir (the source tree; scripts/fetch_model.sh puts
// it there), else <default> in user_models_dir() (the window's downloads).
// When none exists: the project's path (or the working directory's without a project_dir).
std::string default_model_dir(const std::string& project_dir);

// Where the window's File > Get a model… puts models: $XDG_DATA_HOME/vitscope/models,
// else ~/.local/share/vitscope/models; empty when neither variable is set.
std::string user_models_dir();

}  // namespace vit
