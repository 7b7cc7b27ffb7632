// The window's state for a photo run from the command line, so offscreen
// pictures (page figures, tour slides) draw exactly what the window would.
#pragma once
#include <optional>

#include "app/cli_args.h"
#include "app/pipeline.h"
#include "session/state/app_state.h"

namespace app {

// The photo (and the --compare photo, through the same model) as the window
// holds them, with the selection --layer, --head, --patch/--query give (the
// window's start, layer 0, head 0 and CLS, for what is not given).
session::AppState cli_state(const CliArgs& args, Pipeline photo, std::optional<Pipeline> compare = std::nullopt);

}  // namespace app
