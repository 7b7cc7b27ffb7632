#include "vit/base/install_dir.h"

#include <filesystem>

namespace vit {
namespace fs = std::filesystem;

std::string installed_share_dir() {
#if defined(__EMSCRIPTEN__)
    // The browser build is always an installed copy: its page's data package
    // holds share/vitscope at the root of the module's file system (web/app/web_app.cmake).
    return "/share/vitscope";
#endif
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return "";
    const fs::path share = (exe.parent_path() / ".." / "share" / "vitscope").lexically_normal();
    return fs::is_directory(share, ec) ? share.string() : "";
}

std::string resource_dir(const std::string& sub, const std::string& source_fallback) {
    const std::string share = installed_share_dir();
    if (share.empty()) return source_fallback;
    return sub.empty() ? share : (fs::path(share) / sub).string();
}

}  // namespace vit
