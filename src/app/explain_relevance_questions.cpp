// Does the attention map explain the prediction? The relevance page's numbers
// as CSV: `--question relevance` (the four maps, one row per patch) and
// `--question perturbation` (the probability as patches are removed in each
// map's order). Both need --class LABEL|INDEX. The column contracts are in
// docs/command-line-and-python.md; every number comes from src/vit.
#include <cstdio>
#include <limits>
#include <string>

#include "app/explain_questions.h"
#include "app/progress.h"
#include "vit/analysis/perturbation.h"
#include "vit/analysis/relevance.h"
#include "vit/base/error.h"
#include "vit/forward/classes.h"

namespace app {
namespace {

std::string number_row(const char* format, auto... values) {
    char text[256];
    std::snprintf(text, sizeof text, format, values...);
    return text;
}

// cmd_explain has refused a missing --class before any work.
int chosen_class(const ExplainInput& in) { return vit::find_class(in.photo.model, in.args.get("--class")); }

}  // namespace

std::string explain_relevance(const ExplainInput& in) {
    const vit::Trace& t = in.photo.trace;
    const vit::RelevanceMaps m = vit::relevance_maps(in.photo.model, in.photo.input, t, chosen_class(in),
                                                     stderr_progress("occlusion, one forward pass per patch"));
    std::string out;
    for (int p = 0; p < t.grid * t.grid; ++p) {
        const int token = t.prefix + p;
        out += number_row("%d,%d,%d,%.9g,%.9g,%.9g,%.9g\n", token, t.row_of(token), t.col_of(token),
                          m.attention_last[p], m.rollout[p], m.grad_rollout[p], m.occlusion[p]);
    }
    return out;
}

std::string explain_perturbation(const ExplainInput& in) {
    const int target = chosen_class(in);
    const auto seed = static_cast<uint32_t>(
        in.args.has("--seed") ? in.args.get_int("--seed", 0, std::numeric_limits<int>::max()) : 0);
    const vit::Model& model = in.photo.model;
    const vit::RelevanceMaps m = vit::relevance_maps(model, in.photo.input, in.photo.trace, target,
                                                     stderr_progress("occlusion, one forward pass per patch"));
    const vit::PerturbationTest test =
        vit::perturbation_test(model, in.photo.input, target, m.probability, vit::perturbation_maps(m, seed),
                               stderr_progress("perturbation curves"));
    std::string out;
    for (const vit::PerturbationCurve& c : test.curves)
        for (size_t step = 0; step < c.probability.size(); ++step)
            out += c.method + (c.positive ? ",positive," : ",negative,") +
                   number_row("%.1f,%.9g\n", static_cast<double>(step) / vit::kPerturbationSteps, c.probability[step]);
    return out;
}

}  // namespace app
