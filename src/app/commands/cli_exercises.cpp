// vitscope exercises IMAGE [--exercises FILE] --key KEY.csv [-o SHEET.html|.pdf|.png] [--paper a4|letter]
//                   [--model DIR] [--size S] [--force]:
// the answer key of a homework file (session/homework/answer_key.h) on this photo,
// every answer computed by the model; -o: the paper worksheet (worksheet.h,
// worksheet_print.h), the questions and the numbers to answer them with, no answer.
// vitscope exercises --grade KEY.csv HANDIN.csv... [-o GRADES.csv]: cli_grade.h.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "app/subcommands.h"
#include "app/cli_output_rules.h"
#include "app/commands/cli_grade.h"
#include "app/commands/cli_state.h"
#include "app/commands/cli_variants.h"
#include "app/gui/quiz_export.h"
#include "app/gui/worksheet.h"
#include "app/gui/worksheet_content.h"
#include "app/gui/worksheet_print.h"
#include "app/pipeline.h"
#include "app/resource_paths.h"
#include "session/homework/answer_key.h"
#include "session/homework/exercises.h"
#include "session/homework/variants.h"
#include "session/tour/tour_query.h"
#include "vit/base/error.h"
#include "vit/base/output_file.h"
#include "vit/base/printable.h"

namespace app {
namespace {

// -o's kind from its name: .html, .pdf or .png (the worksheet's three forms).
std::string sheet_kind(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    if (ext != ".html" && ext != ".pdf" && ext != ".png")
        throw vit::Error("-o " + path + ": the worksheet is HTML, PDF or PNG; name it *.html, *.pdf or *.png");
    return ext;
}

}  // namespace

int cmd_exercises(const CliArgs& args) {
    if (args.has("--grade")) return cmd_grade(args);
    if (args.positional.size() != 1)
        throw vit::Error("vitscope exercises takes one IMAGE (or --grade KEY.csv HANDIN.csv...)");
    const bool quiz = args.has("--moodle") || args.has("--gift");
    if (!args.has("--key") && !quiz)
        throw vit::Error("missing --key KEY.csv (the answer key; '-': standard output), or --moodle / --gift QUIZ");
    if (!args.has("--key") && args.has("--output"))
        throw vit::Error("-o SHEET comes with its --key KEY.csv (a worksheet is marked from the key)");
    // Everything that can be refused is, before the model runs.
    const std::string key_path = args.has("--key") ? args.get("--key") : std::string();
    if (!key_path.empty()) vit::check_output(key_path, cli_output_rules(args));
    std::vector<std::string> named = {key_path};
    for (const char* o : {"--output", "--moodle", "--gift"})
        if (args.has(o)) {
            const std::string p = args.get(o);
            if (p != "-") vit::check_output(p, cli_output_rules(args));
            if (std::find(named.begin(), named.end(), p) != named.end())
                throw vit::Error(std::string(o) + " names a file another output names too: " + p);
            named.push_back(p);
        }
    const std::string sheet_path = args.has("--output") ? args.get("--output") : std::string();
    const std::string kind = sheet_path.empty() ? std::string() : sheet_kind(sheet_path);

    const Paper paper = parse_paper(args.has("--paper") ? args.get("--paper") : "a4");
    const Handouts handouts = read_handouts(args);
    const std::string file = args.has("--exercises") ? args.get("--exercises") : default_exercises_file();
    const session::ExerciseSet set = session::read_exercises(file);
    session::AppState s = cli_state(args, run_pipeline(args));
    s.photos_dir = sample_photos_dir();
    if (!handouts.empty()) session::make_relevant_choice_now(s, *set.tour);  // the ranking a varied query follows
    const std::vector<session::ExerciseAnswer> answers = session::answer_exercises(s, set);
    std::string sheet;
    if (kind == ".html") sheet = worksheet_html(s, set, answers);
    if (kind == ".pdf") sheet = worksheet_pdf(worksheet_content(s, set, answers), paper);
    if (kind == ".png") sheet = worksheet_png(worksheet_content(s, set, answers), paper);
    // One key (and quiz) for every variant; the worksheet is variant 1's.
    std::vector<QuizVariant> variants = {{1, set, answers}};
    for (int v = 2; v <= handouts.variants; ++v) {
        const session::ExerciseSet variant =
            session::exercise_variant(set, answers, *s.trace(), v, session::relevant_choice(s));
        variants.push_back({v, variant, session::answer_exercises(s, variant)});
    }
    std::string key;
    for (const QuizVariant& v : variants)
        key += session::answer_key_csv(*s.trace(), v.set, v.answers, v.variant, v.variant == 1);
    std::vector<std::pair<std::string, std::string>> outputs;  // path, contents
    if (!key_path.empty()) outputs.emplace_back(key_path, key);
    if (!sheet_path.empty()) outputs.emplace_back(sheet_path, sheet);
    Quiz moodle, gift_quiz;
    if (args.has("--moodle")) outputs.emplace_back(args.get("--moodle"), (moodle = moodle_xml(s, variants)).text);
    if (args.has("--gift")) outputs.emplace_back(args.get("--gift"), (gift_quiz = gift(s, variants)).text);
    // All or none: each is written whole under a temporary name, and only when all are is any
    // renamed into place (a key without its worksheet would be a run that failed half-way).
    std::vector<std::unique_ptr<vit::OutputTemp>> temps;
    for (const auto& o : outputs) temps.push_back(std::make_unique<vit::OutputTemp>(o.first, cli_output_rules(args)));
    // Files first: what goes straight into a descriptor ("-", a pipe, a device) cannot be taken back.
    for (bool direct : {false, true})
        for (size_t i = 0; i < temps.size(); ++i)
            if (temps[i]->temp_path().empty() == direct) temps[i]->write(outputs[i].second);
    for (const auto& temp : temps) temp->commit();
    if (!key_path.empty())
        std::fprintf(stderr, "%s: the answers of %zu exercises x %zu variant%s\n", vit::printable(key_path).c_str(),
                     answers.size(), variants.size(), variants.size() == 1 ? "" : "s");
    if (!sheet_path.empty())
        std::fprintf(stderr, "%s: the worksheet, no answers\n", vit::printable(sheet_path).c_str());
    for (const auto& [o, q] : {std::pair{"--moodle", &moodle}, std::pair{"--gift", &gift_quiz}})
        if (args.has(o))
            std::fprintf(stderr, "%s: %d questions (%d predict_region left out: an LMS cannot mark a region)\n",
                         vit::printable(args.get(o)).c_str(), q->questions, q->left_out);
    return 0;
}

}  // namespace app
