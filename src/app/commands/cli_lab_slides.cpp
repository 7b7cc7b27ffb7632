// vitscope lab RUN -o DIR [--sample I] [--query 0|1|cls] [--steps S,S,...] [--window-size WxH] [--force]:
// the Learning lab's timeline as slides (app/gui/lab_slides.h), drawn
// offscreen through EGL: no display server needed.
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "app/cli_output_rules.h"
#include "app/gui/lab_slides.h"
#include "app/gui/window_options.h"
#include "app/commands/cli_state.h"
#include "app/subcommands.h"
#include "gfx/headless_context.h"
#include "session/lab/lab_numbers.h"
#include "session/lab/lab_run.h"
#include "vit/base/error.h"
#include "vit/base/printable.h"
#include "vit/formats/checkpoint.h"
#include "vit/forward/forward.h"
#include "vit/image/preprocess.h"

namespace app {

int lab_slides(const CliArgs& args, const std::string& run_dir) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::absolute(checked_output(args, "--output", vit::OutputKind::Folder)).lexically_normal();
    const auto run = session::read_lab_run(run_dir);
    LabSlideChoice choice;
    choice.sample = args.get_int_opt("--sample", 0, static_cast<int>(run->samples.size()) - 1).value_or(0);
    const std::string query = args.has("--query") ? args.get("--query") : "cls";
    if (query != "0" && query != "1" && query != "cls") throw vit::Error("--query is 0, 1 or cls, not '" + query + "'");
    choice.query = query == "cls" ? session::kQueryCls : query == "1" ? session::kQuerySquare2 : session::kQuerySquare1;
    if (args.has("--steps")) {
        std::istringstream in(args.get("--steps"));
        std::string word;
        while (std::getline(in, word, ',')) {
            char* end = nullptr;
            const long step = std::strtol(word.c_str(), &end, 10);
            if (word.empty() || *end || step < 0 || step > 10000000)
                throw vit::Error("--steps is a list of steps (0, 20, 400), not '" + args.get("--steps") + "'");
            choice.steps.push_back(static_cast<int>(step));
        }
    }
    SlideSize size;
    if (const WindowOptions o = parse_window_options(args); o.width > 0) size = {o.width, o.height};
    if (size.width > kMaxSlideSide || size.height > kMaxSlideSide)
        throw vit::Error("--window-size for slides is at most " + std::to_string(kMaxSlideSide) + " px a side");
    // The window's state needs a model run on a photo: the last checkpoint on the sample.
    Pipeline p;
    p.model = vit::load_model(run->checkpoint_dir(run->log.size() - 1));
    p.image = vit::load_image(run->sample_path(choice.sample));
    p.input = vit::preprocess(p.image, p.model.config.pre);
    p.trace = vit::forward(p.model, p.input);
    session::AppState s = cli_state(args, std::move(p));
    gfx::HeadlessContext gl;
    write_lab_slides(s, run->dir, choice, dir, cli_output_rules(args), size);
    std::fprintf(stderr, "%s: timeline.gif (%zu checkpoints), the chosen checkpoints as PNG, index.html\n",
                 vit::printable(dir.string()).c_str(), run->log.size());
    return 0;
}

}  // namespace app
