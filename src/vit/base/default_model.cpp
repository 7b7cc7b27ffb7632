#include "vit/base/default_model.h"

#include <cstdlib>
#include <filesystem>

#include "vit/base/install_dir.h"

namespace vit {
namespace fs = std::filesystem;

std::string default_model_dir(const std::string& project_dir) {
    if (const char* env = std::getenv("VITSCOPE_MODEL"); env && *env) return env;
    std::error_code ec;
    const fs::path local = fs::path("models") / kDefaultModelName;
    if (fs::exists(local, ec)) return local.string();
    // An installed copy never reads the source tree it was built from.
    const bool installed = !installed_share_dir().empty();
    const fs::path project =
        project_dir.empty() || installed ? local : fs::path(project_dir) / "models" / kDefaultModelName;
    if (!installed && fs::exists(project, ec)) return project.string();
    const std::string user = user_models_dir();
    const fs::path in_user = user.empty() ? fs::path() : fs::path(user) / kDefaultModelName;
    if (!user.empty() && fs::exists(in_user, ec)) return in_user.string();
    const std::string mirror = model_mirror_dir();
    if (!mirror.empty() && fs::exists(fs::path(mirror) / kDefaultModelName, ec))
        return (fs::path(mirror) / kDefaultModelName).string();
    // Nothing found: name where a model is expected (the user's folder once installed).
    return installed && !user.empty() ? in_user.string() : project.string();
}

std::string model_mirror_dir() {
    if (const char* env = std::getenv("VITSCOPE_MODEL_MIRROR")) {
        // A file:// mirror (as fetch_model.sh takes) is a folder; an http(s) one has no folder to look in.
        const std::string v = env;
        if (v.rfind("file://", 0) == 0) return v.substr(7);
        return v.rfind("http://", 0) == 0 || v.rfind("https://", 0) == 0 ? "" : v;
    }
#ifdef VITSCOPE_MODEL_MIRROR_DIR
    return VITSCOPE_MODEL_MIRROR_DIR;
#else
    return "";
#endif
}

std::string user_models_dir() {
    // A relative XDG_DATA_HOME is ignored, as the XDG spec says.
    if (const char* x = std::getenv("XDG_DATA_HOME"); x && *x == '/')
        return (fs::path(x) / "vitscope" / "models").string();
    if (const char* home = std::getenv("HOME"); home && *home)
        return (fs::path(home) / ".local" / "share" / "vitscope" / "models").string();
    return "";
}

}  // namespace vit
