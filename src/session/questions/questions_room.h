// The Questions room's actions (apply_questions), commands (the page's
// figure export, carried out by the window), state-file part and script verbs:
//   question NAME           the Questions tab on that page, then 2 frames (a `wait`
//                           after it waits for the numbers the page computes)
//   export-question [PATH]  the page shown, as its Export figure button (then waits:
//                           the page's experiments may run first)
#pragma once
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>
#include <variant>

#include "session/base/drawn_report.h"
#include "session/base/script_verb.h"
#include "session/base/variant_tools.h"
#include "session/state/app_state.h"

namespace session {

namespace act {
struct ShowQuestion {
    std::string name;
};  // opens the Questions tab on that page
struct SetRelevanceClass {
    int index;
};  // the relevance page's class (-1: the top-1)
struct SetPermutationSeed {
    uint32_t seed;
};  // the permutation page's shuffle
struct SetMatrixZoom {
    int zoom;
};  // clamped to 1..kMaxMatrixZoom
struct HoverMatrixCell {
    int query, key;
};  // -1, -1: nothing hovered
}  // namespace act

namespace cmd {
struct ExportQuestionFigure {  // a Questions page as a PNG figure
    std::string path;          // empty: a descriptive name in export_dir
    std::string page;          // empty: the page the state shows (question)
    bool replace = false;
};
}  // namespace cmd

using QuestionsActions = std::variant<act::ShowQuestion, act::SetRelevanceClass, act::SetPermutationSeed,
                                      act::SetMatrixZoom, act::HoverMatrixCell>;
using QuestionsCommands = std::variant<cmd::ExportQuestionFigure>;
using QuestionsRequest = joined_variant_t<QuestionsActions, QuestionsCommands>;

void apply_questions(AppState& s, const QuestionsActions& a);
void questions_json(const AppState& s, const DrawnReport& drawn, nlohmann::json& j);
std::span<const Verb<QuestionsRequest>> questions_verbs();

}  // namespace session
