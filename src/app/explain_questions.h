// The Questions pages as the command line sees them: each question names the
// numbers it writes with `vitscope explain IMAGE --question NAME --csv OUT.csv`.
// The computations live in src/vit; a question here only picks what to compute
// from the command line's selection and formats it (the column contracts are
// in the README).
#pragma once
#include <string>
#include <vector>

#include "app/cli_args.h"
#include "app/pipeline.h"
#include "vit/analysis/questions.h"

namespace app {

struct ExplainInput {
    const CliArgs& args;
    Pipeline& photo;              // the IMAGE, with the full trace
    const Pipeline* compare;      // --compare IMAGE2 (same model), or null
};

// How the command line answers one question of vit::all_questions(): its CSV
// rows, under the header the table gives (QuestionPage::columns).
struct ExplainRows {
    const char* name;  // --question NAME
    std::string (*rows)(const ExplainInput& in);
};

// The follow-up questions' rows (scaling, heads, quadratic, cls, rollout, ablation).
std::vector<ExplainRows> why_rows();
// The rows of the questions on what attention is (global, dynamic, permutation, position, cross, mlp).
std::vector<ExplainRows> property_rows();
// Does the attention map explain the prediction? (relevance, perturbation; need --class).
std::vector<ExplainRows> relevance_rows();

// The heads a question reads: {--head H} (0 when not given), or every head with --mean-heads.
std::vector<int> chosen_heads(const ExplainInput& in);

// The question called NAME; throws vit::Error listing the known names otherwise.
const vit::QuestionPage& find_question(const std::string& name);
// The CSV of a question: its header line, then its rows.
std::string question_csv(const vit::QuestionPage& question, const ExplainInput& in);

}  // namespace app
