#include "session/questions/questions_room.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "session/base/overloaded.h"
#include "session/core/core_json.h"
#include "vit/analysis/attention_matrix.h"
#include "vit/analysis/questions.h"
#include "vit/base/error.h"

namespace session {

void apply_questions(AppState& s, const QuestionsActions& a) {
    std::visit(
        Overloaded{
            [&](const act::ShowQuestion& x) {
                s.tab = CoreRoom::Tab::Questions;
                s.question = x.name;
            },
            [&](const act::SetRelevanceClass& x) { s.relevance_class = x.index < 0 ? -1 : x.index; },
            [&](const act::SetPermutationSeed& x) { s.permutation_seed = x.seed; },
            [&](const act::SetMatrixZoom& x) { s.matrix_zoom = std::clamp(x.zoom, 1, kMaxMatrixZoom); },
            [&](const act::HoverMatrixCell& x) {
                const bool inside =
                    s.trace() && x.query >= 0 && x.key >= 0 && x.query < s.trace()->tokens && x.key < s.trace()->tokens;
                s.matrix_hover = inside ? QuestionsRoom::MatrixHover{x.query, x.key} : QuestionsRoom::MatrixHover{};
            },
        },
        a);
}

namespace {

// The matrix page as the state file reports it: the zoom, the window of cells
// on show [first row, first column, cells], the hovered cell and its weight.
nlohmann::json matrix_json(const AppState& s) {
    const vit::Trace* t = s.trace();
    nlohmann::json m;
    m["zoom"] = s.matrix_zoom;
    const vit::MatrixWindow w = vit::matrix_window(t ? t->tokens : 0, s.matrix_zoom, s.sel.query);
    m["window"] = {w.first_row, w.first_col, w.cells};
    m["hover"] = nullptr;
    const auto& h = s.matrix_hover;
    if (t && h.query >= 0 && h.query < t->tokens && h.key >= 0 && h.key < t->tokens)
        m["hover"] = {{"query", h.query},
                      {"key", h.key},
                      {"weight", t->layers[s.sel.layer].heads[s.sel.head].attn(h.query, h.key)}};
    return m;
}

}  // namespace

void questions_json(const AppState& s, const DrawnReport& drawn, nlohmann::json& j) {
    j["question"] = s.question;
    j["relevance_class"] = s.relevance_class;
    j["permutation_seed"] = s.permutation_seed;
    j["matrix"] = matrix_json(s);
    j["page_export_button"] = points_by_name(drawn.page_export_button);
    j["page_figure"] = {{"kind", drawn.page_figure_kind}, {"rect", drawn.page_figure}};
}

namespace {

using QuestionsOut = std::vector<QuestionsRequest>;

const Verb<QuestionsRequest> kQuestionsVerbs[] = {
    // As for tab: a following `wait` then waits for the numbers the page asked for.
    {"question", VerbArg::Required,
     [](const ScriptCommand& c, const AppState&, QuestionsOut& out) {
         if (!vit::find_question_page(c.arg)) throw vit::Error(c.where + ": no question page '" + c.arg + "'");
         out.push_back(act::ShowQuestion{c.arg});
         return VerbWait{2};
     }},
    // Waits until it is saved: its page's experiments may run first.
    {"export-question", VerbArg::File,
     [](const ScriptCommand& c, const AppState&, QuestionsOut& out) {
         out.push_back(cmd::ExportQuestionFigure{c.arg, ""});  // the state's page
         return VerbWait{0, true, false, true};
     }},
};

}  // namespace

std::span<const Verb<QuestionsRequest>> questions_verbs() { return kQuestionsVerbs; }

}  // namespace session
