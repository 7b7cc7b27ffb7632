// The Questions pages as the command line sees them: each question names the
// numbers it writes with `vitscope explain IMAGE --question NAME --csv OUT.csv`.
// The computations live in src/vit; a question here only picks what to compute
// from the command line's selection and formats it (the column contracts are
// in the README).
#pragma once
#include <string>
#include <vector>

#include "cli_args.h"
#include "pipeline.h"

namespace app {

struct ExplainInput {
    const CliArgs& args;
    Pipeline& photo;              // the IMAGE, with the full trace
    const Pipeline* compare;      // --compare IMAGE2 (same model), or null
};

struct ExplainQuestion {
    const char* name;             // --question NAME
    const char* title;            // one line, for listings and figure titles
    bool needs_compare;           // refused without --compare IMAGE2
    // The page's numbers as CSV: a header line, then one row per item.
    std::string (*csv)(const ExplainInput& in);
    bool needs_class = false;     // its CSV is refused without --class LABEL|INDEX
};

// The pages of the follow-up questions (scaling, heads, quadratic, cls, rollout, ablation).
std::vector<ExplainQuestion> why_questions();
// The pages on what attention is (global, dynamic, permutation, position, cross, mlp).
std::vector<ExplainQuestion> property_questions();
// Does the attention map explain the prediction? (relevance, perturbation; need --class).
std::vector<ExplainQuestion> relevance_questions();

// Every question, in the order the Questions tab lists them.
std::vector<ExplainQuestion> all_questions();
// The question called NAME; throws vit::Error listing the known names otherwise.
const ExplainQuestion& find_question(const std::string& name);

}  // namespace app
