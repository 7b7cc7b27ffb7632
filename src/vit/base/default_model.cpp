#include "vit/base/default_model.h"

#include <cstdlib>
#include <filesystem>

namespace vit {
namespace fs = std::filesystem;

std::string default_model_dir(const std::string& project_dir) {
    if (const char* env = std::getenv("VITSCOPE_MODEL"); env && *env) return env;
    std::error_code ec;
    const fs::path local = fs::path("models") / kDefaultModelName;
    if (fs::exists(local, ec)) return local.string();
    const fs::path project = project_dir.empty() ? local : fs::path(project_dir) / "models" / kDefaultModelName;
    if (fs::exists(project, ec)) return project.string();
    const std::string user = user_models_dir();
    if (!user.empty() && fs::exists(fs::path(user) / kDefaultModelName, ec)) return (fs::path(user) / kDefaultModelName).string();
    return project.string();
}

std::string user_models_dir() {
    if (const char* x = std::getenv("XDG_DATA_HOME"); x && *x) return (fs::path(x) / "vitscope" / "models").string();
    if (const char* home = std::getenv("HOME"); home && *home)
        return (fs::path(home) / ".local" / "share" / "vitscope" / "models").string();
    return "";
}

}  // namespace vit
