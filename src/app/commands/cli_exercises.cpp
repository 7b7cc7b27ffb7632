// vitscope exercises IMAGE [--exercises FILE] --key KEY.csv [-o SHEET.html] [--model DIR] [--size S] [--force]:
// the answer key of a homework file (session/homework/exercises.h) on this photo,
// every answer computed by the model: exercise,kind,layer,head,query,key,answer,tolerance;
// -o: the printable worksheet (worksheet.h), the questions without the answers.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "app/subcommands.h"
#include "app/cli_output_rules.h"
#include "app/commands/cli_state.h"
#include "app/gui/figure_output.h"
#include "app/gui/worksheet.h"
#include "app/pipeline.h"
#include "app/resource_paths.h"
#include "session/homework/exercises.h"
#include "vit/base/error.h"
#include "vit/base/output_file.h"
#include "vit/base/printable.h"

namespace app {

int cmd_exercises(const CliArgs& args) {
    if (!args.has("--key")) throw vit::Error("missing --key KEY.csv (the answer key; '-': standard output)");
    // Everything that can be refused is, before the model runs.
    const std::string key_path = args.get("--key");
    vit::check_output(key_path, cli_output_rules(args));
    const std::string sheet_path = args.has("--output") ? figure_output_path(args, ".html") : std::string();
    if (!sheet_path.empty() && sheet_path == key_path) throw vit::Error("--key and -o name the same file: " + key_path);
    const std::string file = args.has("--exercises") ? args.get("--exercises") : default_exercises_file();
    const session::ExerciseSet set = session::read_exercises(file);
    session::AppState s = cli_state(args, run_pipeline(args));
    s.photos_dir = sample_photos_dir();
    const std::vector<session::ExerciseAnswer> answers = session::answer_exercises(s, set);
    const std::string sheet = sheet_path.empty() ? std::string() : worksheet_html(s, set, answers);
    // Both or neither: each is written whole under a temporary name, and only
    // when both are is either renamed into place (a key without its worksheet
    // would be a run that failed and left half its output).
    std::vector<std::unique_ptr<vit::OutputTemp>> temps;
    temps.push_back(std::make_unique<vit::OutputTemp>(key_path, cli_output_rules(args)));
    if (!sheet_path.empty()) temps.push_back(std::make_unique<vit::OutputTemp>(sheet_path, cli_output_rules(args)));
    const std::string contents[] = {session::answer_key_csv(set, answers), sheet};
    // Files first: what goes straight into a descriptor ("-", a pipe, a device) cannot be taken back.
    for (bool direct : {false, true})
        for (size_t i = 0; i < temps.size(); ++i)
            if (temps[i]->temp_path().empty() == direct) temps[i]->write(contents[i]);
    for (const auto& temp : temps) temp->commit();
    std::fprintf(stderr, "%s: the answers of %zu exercises\n", vit::printable(key_path).c_str(), answers.size());
    if (!sheet_path.empty())
        std::fprintf(stderr, "%s: the worksheet, no answers\n", vit::printable(sheet_path).c_str());
    return 0;
}

}  // namespace app
