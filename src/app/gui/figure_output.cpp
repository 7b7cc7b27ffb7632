#include "app/gui/figure_output.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "app/cli_output_rules.h"
#include "vit/base/error.h"

namespace app {

std::string figure_output_path(const CliArgs& args, const std::string& extension) {
    namespace fs = std::filesystem;
    std::string kind = extension.substr(1);
    std::transform(kind.begin(), kind.end(), kind.begin(), [](unsigned char c) { return std::toupper(c); });
    const std::string out = args.get("--output");
    if (out.empty()) throw vit::Error("missing -o OUT" + extension);
    if (out == "-") return out;  // standard output (vit::write_output)
    std::string ext = fs::path(out).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    if (ext != extension) throw vit::Error("-o " + out + ": the figure is a " + kind + "; name it *" + extension);
    vit::check_output(out, cli_output_rules(args));
    return out;
}

}  // namespace app
