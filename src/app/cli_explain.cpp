// vitscope explain IMAGE --question NAME [--layer L] [--head H] [--patch R,C | --query cls]
//                  [--compare IMAGE2] [--model DIR] (--csv OUT.csv | -o OUT.png | both)
#include <cstdio>
#include <optional>
#include <string>

#include "commands.h"
#include "explain_figure.h"
#include "explain_questions.h"
#include "output_rules.h"
#include "vit/base/error.h"

namespace app {

std::vector<ExplainQuestion> all_questions() {
    std::vector<ExplainQuestion> all = why_questions();
    for (const ExplainQuestion& q : property_questions()) all.push_back(q);
    return all;
}

const ExplainQuestion& find_question(const std::string& name) {
    static const std::vector<ExplainQuestion> all = all_questions();
    std::string known;
    for (const ExplainQuestion& q : all) {
        if (name == q.name) return q;
        known += (known.empty() ? "" : ", ") + std::string(q.name);
    }
    throw vit::Error("unknown --question '" + name + "' (known: " + known + ")");
}

int cmd_explain(const CliArgs& args) {
    if (!args.has("--question")) throw vit::Error("missing --question NAME");
    const ExplainQuestion& question = find_question(args.get("--question"));
    const bool csv = args.has("--csv"), png = args.has("--output");
    if (!csv && !png) throw vit::Error("give --csv OUT.csv, -o OUT.png or both");
    // Everything that can be refused is, before any work.
    const std::string png_path = png ? check_explain_figure(args, question.name) : "";
    const std::string csv_path = csv ? checked_output(args, "--csv") : "";
    if (csv && png && csv_path == png_path) throw vit::Error("--csv and -o name the same file");
    if (question.needs_compare && !args.has("--compare"))
        throw vit::Error("--question " + std::string(question.name) + " needs --compare IMAGE2");
    if (!question.needs_compare && args.has("--compare"))
        throw vit::Error("--question " + std::string(question.name) +
                         " takes no second photo (--compare is for dynamic and cross)");
    Pipeline photo = run_pipeline(args);
    std::optional<Pipeline> compare;
    if (args.has("--compare")) compare = run_pipeline_on(args, args.get("--compare"));
    // Both made before either is written: a failure writes neither.
    const std::string text = csv ? question.csv({args, photo, compare ? &*compare : nullptr}) : "";
    std::optional<ExplainFigure> figure;
    if (png) figure = explain_figure(args, std::move(photo), std::move(compare), question.name);
    const vit::OutputRules rules = output_rules(args);
    if (csv) vit::write_output(csv_path, text, rules);
    if (figure) {
        vit::write_output(png_path, figure->png, rules);
        std::printf("%s: %d x %d pixels\n", png_path.c_str(), figure->width, figure->height);
    }
    return 0;
}

}  // namespace app
