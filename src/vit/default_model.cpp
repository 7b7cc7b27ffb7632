#include "default_model.h"

#include <cstdlib>
#include <filesystem>

namespace vit {

std::string default_model_dir(const std::string& project_dir) {
    namespace fs = std::filesystem;
    if (const char* env = std::getenv("VITSCOPE_MODEL"); env && *env) return env;
    const fs::path local = fs::path("models") / kDefaultModelName;
    std::error_code ec;
    if (project_dir.empty() || fs::exists(local, ec)) return local.string();
    return (fs::path(project_dir) / "models" / kDefaultModelName).string();
}

}  // namespace vit
