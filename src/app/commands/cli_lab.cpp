// vitscope lab RUN (--csv FILE|- | -o DIR | both) [--sample I] [--force] ...
// The Learning lab's numbers for a training run (vitscope train -o RUN, or
// the lab's Train) on one of its held-out samples, the numbers the window
// draws (session/lab/lab_numbers.h): one row per checkpoint x layer x head x
// query (square1, square2, cls) with the query's weight on each square and
// on the background, the checkpoint's held-out accuracy and loss (log.csv),
// and the checkpoint's position-similarity claim. -o DIR: the timeline as
// slides (cli_lab_slides.cpp, the GUI build).
#include <memory>
#include <string>

#include "app/cli_output_rules.h"
#include "app/subcommands.h"
#include "session/lab/lab_numbers.h"
#include "session/lab/lab_run.h"
#include "session/lab/lab_view.h"
#include "vit/base/error.h"
#include "vit/base/output_file.h"
#include "vit/formats/checkpoint.h"

namespace app {

int cmd_lab(const CliArgs& args) {
    if (!args.has("--csv") && !args.has("--output"))
        throw vit::Error("lab needs --csv FILE ('-': standard output) or -o DIR (slides), or both");
    if (args.has("--output") && !args.has("--csv")) return lab_slides(args, args.positional.at(0));
    const std::string out = args.get("--csv");
    if (out.empty()) throw vit::Error("missing --csv value");
    vit::check_output(out, cli_output_rules(args));  // both refused before any work
    if (args.has("--output")) checked_output(args, "--output", vit::OutputKind::Folder);
    const auto run = session::read_lab_run(args.positional.at(0));
    const int last = static_cast<int>(run->samples.size()) - 1;
    const int sample = args.get_int_opt("--sample", 0, last).value_or(0);
    const vit::Image image = vit::load_image(run->sample_path(sample));
    const vit::Model first = vit::load_model(run->checkpoint_dir(0));
    const auto squares = session::find_squares(image, first.patch, run->task);
    if (squares.size() != 2)
        throw vit::Error(run->sample_path(sample) + ": " + std::to_string(squares.size()) +
                         " flat squares, not the task's 2");
    const int prefix = first.prefix_tokens();
    const auto series = session::run_numbers(*run, image, prefix + squares[0].patch, prefix + squares[1].patch,
                                             [](const std::string& dir) {
                                                 return std::make_shared<const vit::Model>(vit::load_model(dir));
                                             });
    vit::write_output(out, session::lab_csv(series), cli_output_rules(args));
    return args.has("--output") ? lab_slides(args, args.positional.at(0)) : 0;
}

}  // namespace app
