// Where the tests find the real default model: $VITSCOPE_MODEL, else the
// mirror ($VITSCOPE_MODEL_MIRROR or ../shared/models beside the checkout).
#pragma once
#include <cstdlib>
#include <filesystem>
#include <string>

namespace vit::testing {

inline std::string default_model_dir() {
    const std::string name = "vit_tiny_patch16_224.augreg_in21k_ft_in1k";
    if (const char* env = std::getenv("VITSCOPE_MODEL"); env && *env) return env;
    if (const char* mirror = std::getenv("VITSCOPE_MODEL_MIRROR"); mirror && *mirror)
        return std::string(mirror) + "/" + name;
    return std::string(VITSCOPE_SOURCE_DIR) + "/../shared/models/" + name;
}

inline std::string asset(const std::string& name) { return std::string(VITSCOPE_SOURCE_DIR) + "/assets/" + name; }

}  // namespace vit::testing
