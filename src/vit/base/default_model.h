// Where the default model is looked for when no --model is given: one lookup
// for the program and its tests.
#pragma once
#include <string>

namespace vit {

constexpr const char* kDefaultModelName = "vit_tiny_patch16_224.augreg_in21k_ft_in1k";

// $VITSCOPE_MODEL, else models/<default> beside the working directory, else
// models/<default> in project_dir (the source tree; scripts/fetch_model.sh puts
// it there; skipped by an installed copy), else <default> in user_models_dir()
// (the window's downloads), else <default> in model_mirror_dir().
// When none exists: the project's path (the user's folder once installed, the
// working directory's without a project_dir).
std::string default_model_dir(const std::string& project_dir);

// $VITSCOPE_MODEL_MIRROR when set (empty or an http(s) URL: no folder; a
// file:// URL: its path), else the mirror the
// build was configured with (VITSCOPE_MODEL_MIRROR at configure time, or
// ../shared/models beside the checkout, as CI has it); empty when none.
std::string model_mirror_dir();

// Where the window's File > Get a model… puts models: $XDG_DATA_HOME/vitscope/models,
// else ~/.local/share/vitscope/models; empty when neither variable is set.
std::string user_models_dir();

}  // namespace vit
