// Where the tests find the real default model: the program's own lookup
// (vit::default_model_dir: $VITSCOPE_MODEL, else models/<default>; scripts/test.sh
// sets it). A missing model is a failure, never a skip.
#pragma once
#include <filesystem>
#include <string>

#include "vit/base/default_model.h"
#include "vit/base/error.h"

namespace vit::testing {

// Throws vit::Error (failing the test that asked) when the model is not there.
inline std::string default_model_dir() {
    const std::string dir = vit::default_model_dir(VITSCOPE_SOURCE_DIR);
    if (!std::filesystem::exists(std::filesystem::path(dir) / "config.json"))
        throw vit::Error("the default model is not at " + dir +
                         " (run the tests through scripts/test.sh, or set VITSCOPE_MODEL)");
    return dir;
}

inline std::string asset(const std::string& name) {
    return (std::filesystem::path(VITSCOPE_SOURCE_DIR) / "assets" / name).string();
}

}  // namespace vit::testing
