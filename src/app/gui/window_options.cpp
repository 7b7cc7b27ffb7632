#include "app/gui/window_options.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "app/cli_output_rules.h"
#include "vit/base/error.h"
#include "vit/base/output_file.h"

namespace app {

namespace fs = std::filesystem;

bool path_exists(const std::string& p) {
    std::error_code ec;
    return !p.empty() && fs::exists(p, ec);
}

WindowOptions parse_window_options(const CliArgs& args) {
    WindowOptions o;
    if (args.has("--window-size")) {
        const std::string v = args.get("--window-size");
        int w = 0, h = 0;
        char tail = 0;
        // X11's largest window; what OpenGL can draw is checked once the window is there.
        constexpr int kMaxSide = 32767;
        if (std::sscanf(v.c_str(), "%dx%d%c", &w, &h, &tail) != 2 || w < 320 || h < 240 || w > kMaxSide || h > kMaxSide)
            throw vit::Error("--window-size expects WxH (e.g. 1920x1080, from 320x240 to 32767x32767), got '" +
                             v.substr(0, 80) + "'");
        o.width = w;
        o.height = h;
    }
    // The window's own outputs are never one of its inputs (the photo, the script, the tour, the model's files).
    vit::OutputRules inputs = cli_output_rules(args);
    inputs.force = true;
    for (const char* option : {"--state-file", "--frame-stats", "--screenshot"})
        if (args.has(option)) vit::check_output(args.get(option), inputs);
    o.state_file = args.get("--state-file");
    o.frame_stats = args.get("--frame-stats");
    o.use_settings = !args.has("--no-settings");
    o.tour = args.get("--tour");
    o.classroom = args.has("--classroom");
    if (args.has("--ui-scale")) {
        o.ui_scale = std::strtof(args.get("--ui-scale").c_str(), nullptr);
        if (!(o.ui_scale >= 0.5f && o.ui_scale <= 4.f)) throw vit::Error("--ui-scale expects a number from 0.5 to 4");
    }
    return o;
}

std::string startup_model(const CliArgs& args, const session::Settings& remembered) {
    const char* env = std::getenv("VITSCOPE_MODEL");
    if (args.has("--model") || (env && *env)) return resolve_model_dir(args);
    if (path_exists(remembered.model_dir)) return remembered.model_dir;
    // The project's models/ (a build only), the user's downloads, then the mirror.
    return resolve_model_dir(args);
}

std::string startup_image(const CliArgs& args, const session::Settings& remembered) {
    if (!args.positional.empty()) return args.positional.front();
    if (path_exists(remembered.image_path)) return remembered.image_path;
    return (fs::path(sample_photos_dir()) / "dog.jpg").string();
}

}  // namespace app
