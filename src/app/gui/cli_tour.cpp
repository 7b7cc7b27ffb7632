// vitscope tour IMAGE [--tour FILE] -o DIR [--model DIR] [--size S]: every
// step of a guided tour as a 1920 x 1080 PNG of the window at that step (its
// card holds the step's text), plus DIR/index.html showing them in order: a
// slide deck. Drawn offscreen through EGL: no display server needed. The
// folder appears whole or not at all (vit::OutputFolder: a temporary folder
// of the run's, renamed; removed on failure, SIGINT or SIGTERM).
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "app/commands.h"
#include "app/output_rules.h"
#include "app/pipeline.h"
#include "cli_state.h"
#include "gfx/headless_context.h"
#include "session/tour.h"
#include "tour_slides.h"
#include "vit/base/error.h"
#include "window_options.h"

namespace app {
namespace {

namespace fs = std::filesystem;

// -o DIR: a folder that does not exist yet, in one that does.
fs::path output_folder(const CliArgs& args) {
    if (!args.has("--output")) throw vit::Error("missing -o DIR (the folder for the slides)");
    return fs::absolute(checked_output(args, "--output", vit::OutputKind::Folder)).lexically_normal();
}

}  // namespace

int cmd_tour(const CliArgs& args) {
    // Everything that can be refused is, before any work.
    const fs::path dir = output_folder(args);
    const std::string tour_path = args.has("--tour") ? args.get("--tour") : default_tour_file();
    auto tour = std::make_shared<const session::Tour>(session::read_tour(tour_path));
    session::AppState s = cli_state(args, run_pipeline(args));
    s.photos_dir = sample_photos_dir();
    gfx::HeadlessContext gl;
    session::apply(s, session::act::StartTour{tour});
    write_tour_slides(s, dir, output_rules(args));
    std::printf("%s: %zu slides (%d x %d) and index.html\n", dir.string().c_str(), tour->steps.size(), kSlideWidth,
                kSlideHeight);
    return 0;
}

}  // namespace app
