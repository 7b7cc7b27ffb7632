#include "figure_output.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "vit/base/error.h"

namespace app {

std::string figure_output_path(const CliArgs& args, const std::string& extension) {
    namespace fs = std::filesystem;
    std::string kind = extension.substr(1);
    std::transform(kind.begin(), kind.end(), kind.begin(), [](unsigned char c) { return std::toupper(c); });
    const std::string out = args.get("--output");
    if (out.empty()) throw vit::Error("missing -o OUT" + extension);
    std::string ext = fs::path(out).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    if (ext != extension) throw vit::Error("-o " + out + ": the figure is a " + kind + "; name it *" + extension);
    std::error_code ec;
    const auto status = fs::symlink_status(out, ec);
    if (fs::exists(status)) {
        if (fs::is_directory(status)) throw vit::Error(out + " is a directory");
        if (!args.has("--force")) throw vit::Error(out + " exists; pass --force to replace it");
    }
    const fs::path dir = fs::path(out).parent_path();
    if (!dir.empty() && !fs::is_directory(dir, ec)) throw vit::Error("directory " + dir.string() + " does not exist");
    return out;
}

}  // namespace app
