// The window's command-line options and where it starts: which model and
// photo to open when none or some are given.
#pragma once
#include <string>

#include "app/cli_args.h"
#include "app/resource_paths.h"
#include "session/dispatch/settings.h"

namespace app {

struct WindowOptions {
    int width = 0, height = 0;  // --window-size WxH; 0: remembered or default
    std::string state_file;     // --state-file PATH
    std::string frame_stats;    // --frame-stats PATH
    bool use_settings = true;   // not --no-settings
    float ui_scale = 0;         // --ui-scale S; 0: from the monitor's content scale
    std::string tour;           // --tour FILE: a guided tour to start with
    bool classroom = false;     // --classroom: start in classroom mode
};

// A non-empty path that names something on disk (no exception on odd paths).
bool path_exists(const std::string& path);

// Throws vit::Error naming the option on a malformed value.
WindowOptions parse_window_options(const CliArgs& args);

// --model, $VITSCOPE_MODEL, the remembered model, then vit::default_model_dir
// (the project's models/ in a build, the user's downloads, the model mirror).
std::string startup_model(const CliArgs& args, const session::Settings& remembered);
// IMAGE, the remembered photo, then dog.jpg among the sample photos.
std::string startup_image(const CliArgs& args, const session::Settings& remembered);

}  // namespace app
