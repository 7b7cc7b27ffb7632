// vitscope lesson IMAGE -o OUT.html [--model DIR] [--size S] [--tour FILE | --no-tour] [--force]
// [--layer L] [--head H] [--patch ROW,COL | --query cls|INDEX] [--exercises FILE]:
// the lesson page (lesson_page.h), starting at the selection given (the
// window's start otherwise), with the homework of FILE when given. Written under the output rule
// (vit/base/output_file.h).
#include <cstdio>
#include <memory>
#include <string>

#include "app/subcommands.h"
#include "app/cli_output_rules.h"
#include "app/commands/cli_state.h"
#include "app/gui/figure_output.h"
#include "app/gui/lesson_page.h"
#include "app/gui/window_options.h"
#include "app/pipeline.h"
#include "session/homework/exercises.h"
#include "session/tour/tour.h"
#include "vit/base/output_file.h"
#include "vit/base/printable.h"

namespace app {

int cmd_lesson(const CliArgs& args) {
    // Everything that can be refused cheaply is, before the model runs.
    const std::string out = figure_output_path(args, ".html");
    if (args.options.count("--patch")) parse_patch(args.get("--patch"));
    check_lesson_files();
    std::unique_ptr<session::Tour> tour;
    if (!args.has("--no-tour"))
        tour = std::make_unique<session::Tour>(
            session::read_tour(args.has("--tour") ? args.get("--tour") : default_tour_file()));

    std::unique_ptr<session::ExerciseSet> exercises;
    if (args.has("--exercises"))
        exercises = std::make_unique<session::ExerciseSet>(session::read_exercises(args.get("--exercises")));

    const session::AppState s = cli_state(args, run_pipeline(args));
    const std::string page = lesson_page_html(s, tour.get(), exercises.get());
    vit::write_output(out, page, cli_output_rules(args));
    std::fprintf(stderr, "%s: %.2f MB\n", vit::printable(out).c_str(), static_cast<double>(page.size()) / (1 << 20));
    return 0;
}

}  // namespace app
