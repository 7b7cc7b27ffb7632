// The figure half of `vitscope explain IMAGE --question NAME -o OUT.png`: the
// Questions page drawn offscreen as the window draws it (ui/figures/page_figure.h).
// Built in src/app/gui/explain_figure.cpp; a build without graphics refuses
// -o (without_gui.cpp).
#pragma once
#include <optional>
#include <string>

#include "app/cli_args.h"
#include "app/pipeline.h"

namespace app {

// The page whose figure `--question question -o` draws (the question's own
// page, or the page that shows it), checked with -o OUT.png before any work;
// returns the output path. Throws vit::Error.
std::string check_explain_figure(const CliArgs& args, const std::string& question);

struct ExplainFigure {
    std::string png;  // the file's bytes
    int width = 0, height = 0;
};

// Runs the experiments the page shows, then draws it for the photo (and the
// second photo, --compare, on the two-photo pages) and the selection given by
// --layer, --head, --patch/--query. Throws vit::Error.
ExplainFigure explain_figure(const CliArgs& args, Pipeline photo, std::optional<Pipeline> compare,
                             const std::string& question);

}  // namespace app
