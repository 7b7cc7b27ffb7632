// vitscope lesson IMAGE -o OUT.html [--model DIR] [--size S] [--tour FILE | --no-tour] [--force]
// [--layer L] [--head H] [--patch ROW,COL | --query cls|INDEX] [--exercises FILE
// [--students ROSTER.csv | --variants N]]:
// the lesson page (lesson_page.h), starting at the selection given (the
// window's start otherwise), with the homework of FILE when given. With
// --students or --variants, -o names a new folder and it gets one page per
// student (homework-NAME.html) or per variant (homework-variant-V.html), each
// with its variant of the exercises (session/homework/variants.h). Written
// under the output rule (vit/base/output_file.h).
#include <cstdio>
#include <memory>
#include <string>

#include "app/subcommands.h"
#include "app/cli_output_rules.h"
#include "app/commands/cli_state.h"
#include "app/commands/cli_variants.h"
#include "app/gui/figure_output.h"
#include "app/gui/lesson_page.h"
#include "app/gui/window_options.h"
#include "app/pipeline.h"
#include "app/resource_paths.h"
#include "session/homework/exercises.h"
#include "session/homework/variants.h"
#include "session/tour/tour_query.h"
#include "session/tour/tour.h"
#include "vit/base/error.h"
#include "vit/base/output_file.h"
#include "vit/base/printable.h"

namespace app {

int cmd_lesson(const CliArgs& args) {
    // Everything that can be refused cheaply is, before the model runs.
    const Handouts handouts = read_handouts(args);
    const std::string out = handouts.empty() ? figure_output_path(args, ".html") : args.get("--output");
    if (!handouts.empty() && !args.has("--exercises"))
        throw vit::Error(
            "--students and --variants give each student a variant of the exercises: add --exercises FILE");
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
    if (handouts.empty()) {
        const std::string page = lesson_page_html(s, tour.get(), exercises.get());
        vit::write_output(out, page, cli_output_rules(args));
        std::fprintf(stderr, "%s: %.2f MB\n", vit::printable(out).c_str(),
                     static_cast<double>(page.size()) / (1 << 20));
        return 0;
    }
    session::AppState answering = s;
    if (answering.photos_dir.empty()) answering.photos_dir = sample_photos_dir();
    session::make_relevant_choice_now(answering, *exercises->tour);  // the ranking a varied query follows
    const auto base = session::answer_exercises(answering, *exercises);
    // Every page made before the folder is: a failure writes nothing.
    std::vector<std::pair<std::string, std::string>> pages;
    for (const Handout& h : handouts.pages) {
        const session::ExerciseSet set =
            session::exercise_variant(*exercises, base, *s.trace(), h.variant, session::relevant_choice(answering));
        pages.emplace_back(handout_file_name(h), lesson_page_html(s, tour.get(), &set, h));
    }
    vit::OutputFolder folder(out, cli_output_rules(args));
    for (const auto& [name, page] : pages) folder.write(name, page);
    folder.commit();
    std::fprintf(stderr, "%s: %zu pages, %d variant%s\n", vit::printable(out).c_str(), pages.size(), handouts.variants,
                 handouts.variants == 1 ? "" : "s");
    return 0;
}

}  // namespace app
