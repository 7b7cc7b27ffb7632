// vitscope tour IMAGE [--tour FILE] (-o DIR | --claims FILE) [--model DIR] [--size S]: every
// step of a guided tour as a 1920 x 1080 PNG of the window at that step (its
// card holds the step's text; --classroom: as classroom mode draws it, 1280 x
// 720; --window-size WxH another size), plus DIR/index.html, a slide deck, and DIR/claims.csv, the claims its steps
// check on this photo (session/tour/tour_claims.h); --claims FILE writes that file alone, without drawing anything.
// Drawn offscreen through EGL: no display server needed. The folder appears whole or not at all (vit::OutputFolder: a
// temporary folder of the run's, renamed; removed on failure, SIGINT or SIGTERM).
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "session/dispatch/requests.h"
#include "app/subcommands.h"
#include "app/cli_output_rules.h"
#include "app/commands/cli_state.h"
#include "app/gui/tour_slides.h"
#include "app/gui/window_options.h"
#include "app/pipeline.h"
#include "gfx/headless_context.h"
#include "session/tour/tour.h"
#include "session/tour/tour_claims.h"
#include "session/tour/tour_query.h"
#include "vit/base/error.h"
#include "vit/base/printable.h"

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
    const bool claims_only = args.has("--claims") && !args.has("--output");
    const fs::path dir = claims_only ? fs::path() : output_folder(args);
    if (args.has("--claims")) vit::check_output(args.get("--claims"), cli_output_rules(args));
    // --classroom: the slides as classroom mode draws the window, 1280 x 720 unless --window-size says otherwise.
    SlideSize size = slide_size(args.has("--classroom"));
    if (const WindowOptions o = parse_window_options(args); o.width > 0) size = {o.width, o.height};
    if (size.width > kMaxSlideSide || size.height > kMaxSlideSide)
        throw vit::Error("--window-size for slides is at most " + std::to_string(kMaxSlideSide) + " px a side");
    const std::string tour_path = args.has("--tour") ? args.get("--tour") : default_tour_file();
    auto tour = std::make_shared<const session::Tour>(session::read_tour(tour_path));
    session::AppState s = cli_state(args, run_pipeline(args));
    s.photos_dir = sample_photos_dir();
    session::make_relevant_choice_now(s, *tour);  // no frames to wait through here
    s.classroom = args.has("--classroom");
    session::apply(s, session::act::StartTour{tour});
    if (args.has("--claims")) {
        const std::string path = args.get("--claims");
        vit::write_output(path, session::tour_claims_csv(s), cli_output_rules(args));
        std::fprintf(stderr, "%s: the claims of %zu steps\n", vit::printable(path).c_str(), tour->steps.size());
    }
    if (claims_only) return 0;
    gfx::HeadlessContext gl;
    write_tour_slides(s, dir, cli_output_rules(args), size);
    std::fprintf(stderr, "%s: %zu slides (%d x %d), index.html and claims.csv\n", vit::printable(dir.string()).c_str(),
                 tour->steps.size(), size.width, size.height);
    return 0;
}

}  // namespace app
