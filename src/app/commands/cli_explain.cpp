// vitscope explain IMAGE --question NAME [--layer L] [--head H] [--patch R,C | --query cls]
//                  [--compare IMAGE2] [--model DIR] (--csv OUT.csv | -o OUT.png | both)
#include <cstdio>
#include <optional>
#include <string>
#include <vector>
#include <string_view>

#include "app/subcommands.h"
#include "app/cli_output_rules.h"
#include "app/csv_field.h"
#include "app/explain_figure.h"
#include "app/explain_questions.h"
#include "app/photo_list.h"
#include "vit/base/error.h"

namespace app {

std::vector<int> chosen_heads(const ExplainInput& in) {
    const int heads = in.photo.model.heads;
    if (!in.args.has("--mean-heads")) return {in.args.get_int("--head", 0, heads - 1)};
    std::vector<int> all(static_cast<size_t>(heads));
    for (int h = 0; h < heads; ++h) all[static_cast<size_t>(h)] = h;
    return all;
}

const vit::QuestionPage& find_question(const std::string& name) {
    if (const vit::QuestionPage* q = vit::find_question(name)) return *q;
    std::string known;
    for (const vit::QuestionPage& q : vit::all_questions()) known += (known.empty() ? "" : ", ") + std::string(q.name);
    throw vit::Error("unknown --question '" + name + "' (known: " + known + ")");
}

std::string question_csv(const vit::QuestionPage& question, const ExplainInput& in) {
    struct Rows {
        const char* name;
        std::string (*rows)(const ExplainInput& in);
    };
    static constexpr Rows all[] = {
#define PAGE(name, ...) {#name, explain_##name},
#define ANSWER(name, ...) {#name, explain_##name},
#include "vit/analysis/question_list.inc"
#include "vit/base/printable.h"
#undef PAGE
#undef ANSWER
    };
    for (const Rows& r : all)
        if (std::string_view(question.name) == r.name) return question.columns + std::string("\n") + r.rows(in);
    throw vit::Error(std::string("--question ") + question.name + " has no numbers on the command line");
}

int cmd_explain(const CliArgs& args) {
    if (!args.has("--question")) throw vit::Error("missing --question NAME");
    if (args.has("--head") && args.has("--mean-heads")) throw vit::Error("give one of --head H or --mean-heads");
    const vit::QuestionPage& question = find_question(args.get("--question"));
    const bool png = args.has("--output");
    const bool csv = args.has("--csv") || !png;  // the numbers go to standard output when nothing else is named
    const bool several = photo_paths(args).size() > 1;
    if (png && several) throw vit::Error("-o draws one photo's figure; give one IMAGE (--csv takes several)");
    // Everything that can be refused is, before any work.
    const std::string png_path = png ? check_explain_figure(args, question.name) : "";
    const std::string csv_path = csv ? table_output(args, "--csv") : "";
    if (csv && png && csv_path == png_path) throw vit::Error("--csv and -o name the same file");
    // A figure without --class explains the model's top-1, as the window opens the page.
    if (question.needs_class && csv && !args.has("--class"))
        throw vit::Error("--question " + std::string(question.name) +
                         " needs --class LABEL|INDEX (the class whose prediction is explained)");
    if (question.two_photos && !args.has("--compare"))
        throw vit::Error("--question " + std::string(question.name) + " needs --compare IMAGE2");
    if (!question.two_photos && args.has("--compare"))
        throw vit::Error("--question " + std::string(question.name) +
                         " takes no second photo (--compare is for dynamic and cross)");
    std::string text = several ? "image," + std::string(question.columns) + "\n" : "";
    std::optional<ExplainFigure> figure;
    // The second photo is the same for every photo: run once.
    std::optional<Pipeline> compare;
    if (args.has("--compare")) compare = run_pipeline_on(args, args.get("--compare"));
    const int status = for_each_photo(args, {}, [&](Pipeline& photo, const std::string& path) {
        // Both made before either is written: a failure writes neither.
        if (csv) {
            std::string rows = question_csv(question, {args, photo, compare ? &*compare : nullptr});
            if (several) rows = prefix_lines(rows.substr(rows.find('\n') + 1), csv_field(path), ',');
            text += rows;
        }
        // -o takes one photo only: nothing needs the model after its figure.
        if (png) figure = explain_figure(args, std::move(photo), std::move(compare), question.name);
    });
    const vit::OutputRules rules = cli_output_rules(args);
    if (csv) vit::write_output(csv_path, text, rules);
    if (figure) {
        vit::write_output(png_path, figure->png, rules);
        std::fprintf(stderr, "%s: %d x %d pixels\n", vit::printable(png_path).c_str(), figure->width, figure->height);
    }
    return status;
}

}  // namespace app
