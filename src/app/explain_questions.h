// The Questions pages as the command line sees them: each question names the
// numbers it writes with `vitscope explain IMAGE --question NAME --csv OUT.csv`.
// The computations live in src/vit; a question here only picks what to compute
// from the command line's selection and formats it (the column contracts are
// in docs/command-line-and-python.md).
#pragma once
#include <string>
#include <vector>

#include "app/cli_args.h"
#include "app/pipeline.h"
#include "vit/analysis/questions.h"

namespace app {

struct ExplainInput {
    const CliArgs& args;
    Pipeline& photo;          // the IMAGE, with the full trace
    const Pipeline* compare;  // --compare IMAGE2 (same model), or null
};

// How the command line answers each question of the one list
// (vit/analysis/question_list.inc): explain_NAME(in) gives its CSV rows, under
// the header the list gives (QuestionPage::columns). The follow-up questions'
// are in explain_why_questions.cpp, those on what attention is in
// explain_property_questions.cpp, the relevance page's in explain_relevance_questions.cpp.
#define PAGE(name, ...) std::string explain_##name(const ExplainInput& in);
#define ANSWER(name, ...) std::string explain_##name(const ExplainInput& in);
#include "vit/analysis/question_list.inc"
#undef PAGE
#undef ANSWER

// The heads a question reads: {--head H} (0 when not given), or every head with --mean-heads.
std::vector<int> chosen_heads(const ExplainInput& in);

// The question called NAME; throws vit::Error listing the known names otherwise.
const vit::QuestionPage& find_question(const std::string& name);
// The CSV of a question: its header line, then its rows.
std::string question_csv(const vit::QuestionPage& question, const ExplainInput& in);

}  // namespace app
