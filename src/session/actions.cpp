#include "session/actions.h"

#include <algorithm>
#include <cmath>

#include "session/commands.h"
#include "session/live_exercise.h"
#include "session/overloaded.h"
#include "session/tour_show.h"

namespace session {
namespace {

int clamp_token(const AppState& s, int token) {
    return s.trace() ? std::clamp(token, 0, s.trace()->tokens - 1) : 0;
}

void set_layer(AppState& s, int layer) {
    if (s.layers()) s.sel.layer = std::clamp(layer, 0, s.layers() - 1);
}

void move_query(AppState& s, int drow, int dcol) {
    const vit::Trace* t = s.trace();
    if (!t || t->grid <= 0) return;
    if (!t->is_patch(s.sel.query)) {
        // From CLS (or a register) the arrows step onto the centre of the grid.
        s.sel.query = t->token_of(t->grid / 2, t->grid / 2);
        return;
    }
    const int r = std::clamp(t->row_of(s.sel.query) + drow, 0, t->grid - 1);
    const int c = std::clamp(t->col_of(s.sel.query) + dcol, 0, t->grid - 1);
    s.sel.query = t->token_of(r, c);
}

}  // namespace

void apply(AppState& s, const Action& a) {
    std::visit(
        Overloaded{
            [&](const act::SelectQuery& x) {
                s.sel.query = clamp_token(s, x.token);
                if (s.sweep_path.recording && s.trace() && s.trace()->is_patch(s.sel.query))
                    s.sweep_path.tokens.push_back(s.sel.query);
            },
            [&](const act::MoveQuery& x) { move_query(s, x.drow, x.dcol); },
            [&](const act::SetLayer& x) { set_layer(s, x.layer); },
            [&](const act::StepLayer& x) { set_layer(s, s.sel.layer + x.delta); },
            [&](const act::SetHead& x) {
                if (s.heads()) s.sel.head = std::clamp(x.head, 0, s.heads() - 1);
                s.sel.source = MapSource::Head;
            },
            [&](const act::ToggleHeadVisible& x) {
                auto& v = s.sel.head_visible;
                if (x.head >= 0 && x.head < static_cast<int>(v.size())) v[x.head] = !v[x.head];
            },
            [&](const act::SetMapSource& x) { s.sel.source = x.source; },
            [&](const act::HoverKey& x) { s.sel.hovered_key = x.token < 0 ? -1 : clamp_token(s, x.token); },
            [&](const act::PinKey& x) {
                s.sel.pinned_key = (x.token < 0 || x.token == s.sel.pinned_key) ? -1 : clamp_token(s, x.token);
            },
            [&](const act::SetStyle& x) { s.style = x.style; },
            [&](const act::SetTemperature& x) {
                // std::clamp passes NaN through; a temperature that is not a number is ignored.
                if (!std::isnan(x.temperature)) s.temperature = std::clamp(x.temperature, kMinTemperature, kMaxTemperature);
            },
            [&](const act::DismissError&) { s.last_error.clear(); },
            [&](const act::FoldTourText& x) { s.tour.text_folded = x.folded && s.tour.tour; },
            [&](const act::ShowHelp& x) { s.show_help = x.show; },
            [&](const act::StartTour& x) {
                // The photo's choice stays; classroom mode starts with the card's key sentence alone (H: the rest).
                s.tour = {x.tour, 0, "", s.classroom, s.tour.relevant, s.tour.relevant_generation, s.tour.relevant_wanted};
                if (x.tour && !x.tour->steps.empty()) show_tour_step(s);
            },
            [&](const act::TourGo& x) {
                if (!s.tour.tour) return;
                s.tour.step = std::clamp(x.step, 0, static_cast<int>(s.tour.tour->steps.size()) - 1);
                show_tour_step(s);
            },
            [&](const act::ExitTour&) { s.tour = {}; },
            [&](const act::SetClassroom& x) {
                if (s.tour.tour && s.classroom != x.on) s.tour.text_folded = x.on;  // the projector's card: its key sentence
                s.classroom = x.on;
                if (!x.on) s.prediction = {};  // predicting is classroom mode's; leaving it shows the maps again
                if (!x.on) apply_live(s, live::End{});  // so is the live exercise (its tour ends too)
            },
            [&](const act::SetTheme& x) { s.theme = x.theme; },
            [&](const act::SetMathStep& x) { s.math_step = std::clamp(x.step, 1, kMathSteps); },
            [&](const act::RecordSweepPath& x) {
                s.sweep_path.recording = x.on;
                if (x.on) s.sweep_path.tokens.clear();
            },
            [&](const act::ShowSideBySide& x) {
                auto& sb = s.side_by_side;
                if (x.open && !sb.open) {
                    sb.left = {s.sel.layer, s.sel.head, false};
                    sb.right = {s.sel.layer, s.heads() ? (s.sel.head + 1) % s.heads() : 0, false};
                }
                sb.open = x.open && s.trace() != nullptr;
            },
            [&](const act::SetSidePane& x) {
                AppState::SidePane p = x.pane;
                p.layer = std::clamp(p.layer, 0, std::max(0, s.layers() - 1));
                p.head = std::clamp(p.head, 0, std::max(0, s.heads() - 1));
                p.second_photo = p.second_photo && s.compared.ready();
                (x.right ? s.side_by_side.right : s.side_by_side.left) = p;
            },
            [&](const act::SetMatrixZoom& x) { s.matrix_zoom = std::clamp(x.zoom, 1, kMaxMatrixZoom); },
            [&](const act::HoverMatrixCell& x) {
                const bool inside = s.trace() && x.query >= 0 && x.key >= 0 && x.query < s.trace()->tokens &&
                                    x.key < s.trace()->tokens;
                s.matrix_hover = inside ? AppState::MatrixHover{x.query, x.key} : AppState::MatrixHover{};
            },
            [&](const act::StartPredict&) { s.prediction = {AppState::Prediction::Phase::Predicting, {}}; },
            [&](const act::ToggleMark& x) {
                auto& p = s.prediction;
                if (p.phase != AppState::Prediction::Phase::Predicting || !s.trace() || !s.trace()->is_patch(x.token))
                    return;
                const auto at = std::find(p.marked.begin(), p.marked.end(), x.token);
                if (at == p.marked.end()) p.marked.push_back(x.token);
                else p.marked.erase(at);
            },
            [&](const act::Reveal&) {
                if (s.prediction.phase == AppState::Prediction::Phase::Predicting)
                    s.prediction.phase = AppState::Prediction::Phase::Revealed;
            },
            [&](const act::EndPredict&) { s.prediction = {}; },
            [&](const act::Live& x) { apply_live(s, x.op); },
            [&](const act::Lab& x) { apply_lab(s.lab, x.action); },
            [&](const act::AnswerTourOffer&) { s.tour_offered = true; },
            [&](const act::ShowTab& x) {
                s.tab = x.tab;
            },
            [&](const act::ShowQuestion& x) {
                s.tab = AppState::Tab::Questions;
                s.question = x.name;
            },
            [&](const act::SetRelevanceClass& x) {
                s.relevance_class = x.index < 0 ? -1 : x.index;
            },
            [&](const act::SetPermutationSeed& x) {
                s.permutation_seed = x.seed;
            },
            [&](const act::OpenBrowser& x) {
                s.browser.mode = x.mode;
                if (!x.dir.empty()) s.browser.dir = x.dir;
                if (x.mode != BrowserState::Mode::Closed) {  // one dialog at a time
                    s.show_help = false;
                    s.get_model.open = false;
                }
            },
            [&](const act::ShowGetModel& x) {
                s.get_model.open = x.show;
                if (x.show) {
                    s.show_help = false;
                    s.browser.mode = BrowserState::Mode::Closed;
                }
            },
        },
        a);
}

FrameOutcome handle_frame(AppState& s, const std::vector<Request>& requests) {
    FrameOutcome out;
    bool hover_reported = false;
    for (const Request& r : requests) {
        if (const auto* c = std::get_if<Command>(&r)) {
            out.commands.push_back(*c);
        } else {
            const Action& a = std::get<Action>(r);
            if (const auto* h = std::get_if<act::HoverKey>(&a)) {
                hover_reported = true;
                if (h->token == s.sel.hovered_key) continue;
            }
            apply(s, a);
        }
        out.changed = true;
    }
    if (!hover_reported && s.sel.hovered_key >= 0) {
        apply(s, act::HoverKey{-1});
        out.changed = true;
    }
    return out;
}

}  // namespace session
