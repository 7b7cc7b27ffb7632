#include "state.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "gfx/style_names.h"
#include "live_exercise.h"
#include "live_exercise_report.h"
#include "lab_state.h"
#include "prediction.h"
#include "side_by_side.h"
#include "vit/analysis/attention_matrix.h"
#include "vit/base/error.h"
#include "tour_query.h"
#include "tour_text.h"

namespace session {
namespace {

template <class... F>
struct Overloaded : F... {
    using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

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

namespace {

// A step's choose: picks the layer and head with the largest value of its
// criterion for the query on show (nothing to pick from for CLS, or on a
// model with fewer layers than the criterion names).
void choose_tour_head(AppState& s, const TourStep& step) {
    const vit::Trace* t = s.trace();
    const Tour& tour = *s.tour.tour;
    const std::optional<TourCriterion>& c = step.choose[own_photo(s, tour) ? 0 : 1];
    if (!c || !t || !t->is_patch(s.sel.query) || c->last_layer >= static_cast<int>(t->layers.size())) return;
    if (t->layers.empty() || t->layers[0].heads.empty() || t->layers[0].heads[0].attn.rows() != t->tokens) return;
    const auto region = tour.regions.find(c->region);
    vit::ChosenHead best;
    try {
        best = vit::strongest_head(*t, s.sel.query, c->kind, region == tour.regions.end() ? vit::GridRegion{} : region->second,
                                   c->first_layer, c->last_layer);
    } catch (const vit::Error&) {
        return;  // a trace without the states or Q and K the criterion reads: the head stays
    }
    apply(s, act::SetLayer{best.layer});
    apply(s, act::SetHead{best.head});
}

// Sets what the tour's current step declares, through the actions the mouse
// and keys emit. A query or pin off this grid (another input size) is skipped;
// query=relevant, pin=top and other photos' queries and pins are resolved by tour_query.h.
void show_tour_step(AppState& s, bool open_lesson = true) {
    const TourStep& step = s.tour.tour->steps[s.tour.step];
    if (open_lesson) s.tour.lesson_to_open = step.lesson;
    const vit::Trace* t = s.trace();
    if (step.layer) apply(s, act::SetLayer{*step.layer});
    if (step.head) apply(s, act::SetHead{*step.head});
    if (step.math_step) apply(s, act::SetMathStep{*step.math_step});
    if (step.map) apply(s, act::SetMapSource{*step.map == "mean" ? MapSource::MeanOfVisible : MapSource::Head});
    if (step.query && t)
        if (const int q = tour_query_token(s, *step.query); q >= 0) apply(s, act::SelectQuery{q});
    if (step.scale)
        s.style.normalization = *step.scale == "log"        ? gfx::Normalization::Log
                                : *step.scale == "absolute" ? gfx::Normalization::Absolute
                                                            : gfx::Normalization::RowMax;
    choose_tour_head(s, step);
    if (step.pin) {  // after the head: pin=top is the key the row on show weighs most
        s.sel.pinned_key = -1;
        if (*step.pin != "none" && t)
            if (const int k = tour_pin_token(s, *step.pin); k >= 0) apply(s, act::PinKey{k});
    }
    if (step.question) {
        apply(s, act::ShowQuestion{*step.question});
    } else if (step.tab) {
        for (AppState::Tab tab : {AppState::Tab::Math, AppState::Tab::WhatIfs, AppState::Tab::Questions})
            if (*step.tab == tab_name(tab)) apply(s, act::ShowTab{tab});
    }
}

}  // namespace

void reapply_tour_step(AppState& s) {
    if (s.tour.tour) show_tour_step(s, false);
}

bool handle_frame(const AppState& s, const std::vector<Action>& reported,
                  const std::function<void(const Action&)>& handle) {
    bool hover_reported = false, changed = false;
    for (const Action& a : reported) {
        if (const auto* h = std::get_if<act::HoverKey>(&a)) {
            hover_reported = true;
            if (h->token == s.sel.hovered_key) continue;
        }
        handle(a);
        changed = true;
    }
    if (!hover_reported && s.sel.hovered_key >= 0) {
        handle(act::HoverKey{-1});
        changed = true;
    }
    return changed;
}

bool apply(AppState& s, const Action& a) {
    return std::visit(
        Overloaded{
            [&](const act::SelectQuery& x) {
                s.sel.query = clamp_token(s, x.token);
                if (s.sweep_path.recording && s.trace() && s.trace()->is_patch(s.sel.query))
                    s.sweep_path.tokens.push_back(s.sel.query);
                return true;
            },
            [&](const act::MoveQuery& x) { move_query(s, x.drow, x.dcol); return true; },
            [&](const act::SetLayer& x) { set_layer(s, x.layer); return true; },
            [&](const act::StepLayer& x) { set_layer(s, s.sel.layer + x.delta); return true; },
            [&](const act::SetHead& x) {
                if (s.heads()) s.sel.head = std::clamp(x.head, 0, s.heads() - 1);
                s.sel.source = MapSource::Head;
                return true;
            },
            [&](const act::ToggleHeadVisible& x) {
                auto& v = s.sel.head_visible;
                if (x.head >= 0 && x.head < static_cast<int>(v.size())) v[x.head] = !v[x.head];
                return true;
            },
            [&](const act::SetMapSource& x) { s.sel.source = x.source; return true; },
            [&](const act::HoverKey& x) { s.sel.hovered_key = x.token < 0 ? -1 : clamp_token(s, x.token); return true; },
            [&](const act::PinKey& x) {
                s.sel.pinned_key = (x.token < 0 || x.token == s.sel.pinned_key) ? -1 : clamp_token(s, x.token);
                return true;
            },
            [&](const act::SetStyle& x) { s.style = x.style; return true; },
            [&](const act::SetTemperature& x) {
                // std::clamp passes NaN through; a temperature that is not a number is ignored.
                if (!std::isnan(x.temperature)) s.temperature = std::clamp(x.temperature, kMinTemperature, kMaxTemperature);
                return true;
            },
            [&](const act::DismissError&) { s.last_error.clear(); return true; },
            [&](const act::SetImageView& x) {
                s.reported.image_view[0] = x.x, s.reported.image_view[1] = x.y, s.reported.image_view[2] = x.w, s.reported.image_view[3] = x.h;
                return true;
            },
            [&](const act::SetPageTargets& x) { s.reported.page_targets = x.targets; return true; },
            [&](const act::SetTourOfferButtons& x) { s.reported.tour_offer_buttons = x.buttons; return true; },
            [&](const act::SetPredictButtons& x) { s.reported.predict_buttons = x.buttons; return true; },
            [&](const act::SetReplaceButtons& x) { s.reported.replace_buttons = x.buttons; return true; },
            [&](const act::SetPageExportButton& x) { s.reported.page_export_button = x.button; return true; },
            [&](const act::SetTourCard& x) { s.reported.tour_card = x.rect, s.reported.tour_key = x.key; return true; },
            [&](const act::SetShownMaps& x) { s.reported.maps = x.maps; return true; },
            [&](const act::SetPageFigure& x) { s.reported.page_figure_kind = x.kind, s.reported.page_figure = x.rect; return true; },
            [&](const act::FoldTourText& x) { s.tour.text_folded = x.folded && s.tour.tour; return true; },
            [&](const act::SetHeadThumbs& x) { s.reported.head_thumbs = x.rects; return true; },
            [&](const act::SetLayerGridCells& x) { s.reported.layer_grid = x.rects; return true; },
            [&](const act::ShowHelp& x) { s.show_help = x.show; return true; },
            [&](const act::StartTour& x) {
                // The photo's choice stays; classroom mode starts with the card's key sentence alone (H: the rest).
                s.tour = {x.tour, 0, "", s.classroom, s.tour.relevant, s.tour.relevant_generation, s.tour.relevant_wanted};
                if (x.tour && !x.tour->steps.empty()) show_tour_step(s);
                return true;
            },
            [&](const act::TourGo& x) {
                if (!s.tour.tour) return true;
                s.tour.step = std::clamp(x.step, 0, static_cast<int>(s.tour.tour->steps.size()) - 1);
                show_tour_step(s);
                return true;
            },
            [&](const act::ExitTour&) { s.tour = {}; return true; },
            [&](const act::SetClassroom& x) {
                if (s.tour.tour && s.classroom != x.on) s.tour.text_folded = x.on;  // the projector's card: its key sentence
                s.classroom = x.on;
                if (!x.on) s.prediction = {};  // predicting is classroom mode's; leaving it shows the maps again
                if (!x.on) apply_live(s, live::End{});  // so is the live exercise (its tour ends too)
                return true;
            },
            [&](const act::SetTheme& x) { s.theme = x.theme; return true; },
            [&](const act::SetMathStep& x) { s.math_step = std::clamp(x.step, 1, kMathSteps); return true; },
            [&](const act::RecordSweepPath& x) {
                s.sweep_path.recording = x.on;
                if (x.on) s.sweep_path.tokens.clear();
                return true;
            },
            [&](const act::ShowSideBySide& x) {
                auto& sb = s.side_by_side;
                if (x.open && !sb.open) {
                    sb.left = {s.sel.layer, s.sel.head, false};
                    sb.right = {s.sel.layer, s.heads() ? (s.sel.head + 1) % s.heads() : 0, false};
                }
                sb.open = x.open && s.trace() != nullptr;
                return true;
            },
            [&](const act::SetSidePane& x) {
                AppState::SidePane p = x.pane;
                p.layer = std::clamp(p.layer, 0, std::max(0, s.layers() - 1));
                p.head = std::clamp(p.head, 0, std::max(0, s.heads() - 1));
                p.second_photo = p.second_photo && s.compared.ready();
                (x.right ? s.side_by_side.right : s.side_by_side.left) = p;
                return true;
            },
            [&](const act::SetMatrixZoom& x) { s.matrix_zoom = std::clamp(x.zoom, 1, kMaxMatrixZoom); return true; },
            [&](const act::HoverMatrixCell& x) {
                const bool inside = s.trace() && x.query >= 0 && x.key >= 0 && x.query < s.trace()->tokens &&
                                    x.key < s.trace()->tokens;
                s.matrix_hover = inside ? AppState::MatrixHover{x.query, x.key} : AppState::MatrixHover{};
                return true;
            },
            [&](const act::StartPredict&) {
                s.prediction = {AppState::Prediction::Phase::Predicting, {}};
                return true;
            },
            [&](const act::ToggleMark& x) {
                auto& p = s.prediction;
                if (p.phase != AppState::Prediction::Phase::Predicting || !s.trace() || !s.trace()->is_patch(x.token))
                    return true;
                const auto at = std::find(p.marked.begin(), p.marked.end(), x.token);
                if (at == p.marked.end()) p.marked.push_back(x.token);
                else p.marked.erase(at);
                return true;
            },
            [&](const act::Reveal&) {
                if (s.prediction.phase == AppState::Prediction::Phase::Predicting)
                    s.prediction.phase = AppState::Prediction::Phase::Revealed;
                return true;
            },
            [&](const act::EndPredict&) { s.prediction = {}; return true; },
            [&](const act::AnswerTourOffer& x) {
                s.tour_offered = true;
                s.reported.tour_offer_buttons.clear();
                return !x.take;  // taking it: the window reads the tour (OpenTour)
            },
            [&](const act::ShowTab& x) {
                if (x.tab != s.tab) s.reported.page_targets.clear(), s.reported.page_export_button.clear();  // only the page on screen can be clicked
                s.tab = x.tab;
                return true;
            },
            [&](const act::ShowQuestion& x) {
                s.tab = AppState::Tab::Questions;
                if (s.question != x.name) s.reported.page_targets.clear();  // the new page reports its own
                s.question = x.name;
                return true;
            },
            [&](const act::SetRelevanceClass& x) {
                s.relevance_class = x.index < 0 ? -1 : x.index;
                return true;
            },
            [&](const act::SetPermutationSeed& x) {
                s.permutation_seed = x.seed;
                return true;
            },
            [&](const act::OpenBrowser& x) {
                s.browser.mode = x.mode;
                if (!x.dir.empty()) s.browser.dir = x.dir;
                if (x.mode != BrowserState::Mode::Closed) {  // one dialog at a time
                    s.show_help = false;
                    s.get_model.open = false;
                }
                return true;
            },
            [&](const act::ShowGetModel& x) {
                s.get_model.open = x.show;
                if (x.show) {
                    s.show_help = false;
                    s.browser.mode = BrowserState::Mode::Closed;
                }
                return true;
            },
            [&](const act::Live& x) { apply_live(s, x.op); return true; },
            [&](const act::Lab& x) { return apply_lab(s.lab, x.action); },  // the Learning lab's state-only actions
            [&](const auto&) { return false; },
        },
        a);
}

void adopt(AppState& s, Loaded loaded) {
    const vit::Trace* old = s.trace();
    const int old_grid = old ? old->grid : 0, old_prefix = old ? old->prefix : 0;
    const int old_row = old ? old->row_of(s.sel.query) : -1, old_col = old ? old->col_of(s.sel.query) : -1;
    const int pin_row = old ? old->row_of(s.sel.pinned_key) : -1, pin_col = old ? old->col_of(s.sel.pinned_key) : -1;
    const int old_heads = s.heads();
    s.loaded = std::move(loaded);
    const vit::Trace* t = s.trace();
    if (!t) return;
    s.last_forward_seconds = t->seconds;
    set_layer(s, s.sel.layer);
    const int heads = s.heads();
    s.sel.head = std::clamp(s.sel.head, 0, std::max(0, heads - 1));
    if (heads != old_heads) s.sel.head_visible.assign(heads, true);
    // Same patch when the grid matches, else CLS stays CLS and patches go to the centre.
    if (old_row >= 0 && old_grid == t->grid)
        s.sel.query = t->token_of(old_row, old_col);
    else if (s.sel.query < old_prefix || !old)
        s.sel.query = std::min(s.sel.query, t->prefix - 1);
    else
        s.sel.query = t->token_of(t->grid / 2, t->grid / 2);
    s.sel.hovered_key = -1;
    // The pin stays on its patch (or prefix token) while the grid matches, as the query does.
    if (old_grid != t->grid || (pin_row < 0 && s.sel.pinned_key >= t->prefix))
        s.sel.pinned_key = -1;
    else if (pin_row >= 0)
        s.sel.pinned_key = t->token_of(pin_row, pin_col);
    if (old_grid != t->grid) {  // their patches were on the old grid
        s.sweep_path.tokens.clear();
        s.prediction.marked.clear();
    }
    // A tour started before the first trace (--tour) sets its step's query and pin now.
    if (!old && s.tour.tour) show_tour_step(s, false);
}

namespace {

// The prediction as the state file reports it: phase, marked patches
// [row, col], and once revealed the numbers the reveal shows.
nlohmann::json prediction_json(const AppState& s) {
    const vit::Trace* t = s.trace();
    nlohmann::json p;
    p["phase"] = prediction_phase_name(s.prediction.phase);
    p["marked"] = nlohmann::json::array();
    for (int token : s.prediction.marked) p["marked"].push_back({t ? t->row_of(token) : -1, t ? t->col_of(token) : -1});
    if (const auto score = revealed_prediction(s)) {
        p["weight_on_marked"] = score->weight_on_marked;
        p["weight_on_patches"] = score->weight_on_patches;
        p["area_share"] = score->area_share;
        p["even_spread"] = score->even_spread;
        p["ratio"] = score->ratio;
        p["sentence"] = vit::prediction_sentence(*score);
    }
    return p;
}

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

// Side by side as the state file reports it: the panes and their shared scale's top.
nlohmann::json side_by_side_json(const AppState& s) {
    const auto& sb = s.side_by_side;
    auto pane = [](const AppState::SidePane& p) {
        return nlohmann::json{{"layer", p.layer}, {"head", p.head}, {"photo", p.second_photo ? "second" : "open"}};
    };
    nlohmann::json j{{"open", sb.open}, {"left", pane(sb.left)}, {"right", pane(sb.right)}};
    if (const auto top = side_by_side_scale(s)) j["value_max"] = *top;
    return j;
}

}  // namespace

std::string state_json(const AppState& s) {
    using nlohmann::json;
    const vit::Trace* t = s.trace();
    json j;
    j["layer"] = s.sel.layer;
    j["head"] = s.sel.head;
    j["visible_heads"] = s.sel.visible_heads();
    j["map"] = s.sel.source == MapSource::Head ? "head" : "mean";
    j["query_token"] = s.sel.query;
    j["row"] = t ? t->row_of(s.sel.query) : -1;
    j["col"] = t ? t->col_of(s.sel.query) : -1;
    j["pinned_key"] = s.sel.pinned_key;
    j["image"] = s.loaded.image_path;
    j["model"] = s.loaded.model_dir;
    j["last_error"] = s.last_error;
    j["status"] = s.status;
    j["busy"] = s.work.busy;
    j["experiment_running"] = s.experiments.running;
    j["experiment_results"] = [&] {
        std::vector<std::string> keys;
        for (const auto& [key, result] : s.experiments.results) keys.push_back(key);
        return keys;
    }();
    j["exporting"] = s.exporting;
    j["ready"] = s.loaded.ready() && !s.work.busy;
    j["grid"] = t ? t->grid : 0;
    j["tokens"] = t ? t->tokens : 0;
    j["photo_size"] = {s.loaded.image ? s.loaded.image->width : 0, s.loaded.image ? s.loaded.image->height : 0};
    const auto& c = s.loaded.crop;
    j["crop"] = {c.x, c.y, c.w, c.h};
    j["image_view"] = {s.reported.image_view[0], s.reported.image_view[1], s.reported.image_view[2], s.reported.image_view[3]};
    j["head_thumbs"] = s.reported.head_thumbs;
    j["layer_grid"] = s.reported.layer_grid;
    j["input_size"] = s.loaded.input ? s.loaded.input->size : 0;
    auto by_name = [](const std::vector<PageTarget>& targets) {  // name: [x, y]
        json points = json::object();
        for (const PageTarget& p : targets) points[p.name] = {p.x, p.y};
        return points;
    };
    j["page_targets"] = by_name(s.reported.page_targets);
    j["tour_offer_buttons"] = by_name(s.reported.tour_offer_buttons);
    j["predict_buttons"] = by_name(s.reported.predict_buttons);
    j["replace_question"] = s.replace_question;
    j["replace_buttons"] = by_name(s.reported.replace_buttons);
    j["page_export_button"] = by_name(s.reported.page_export_button);
    j["temperature"] = s.temperature;
    j["style"] = {{"colormap", gfx::name_of(s.style.colormap)}, {"normalization", gfx::name_of(s.style.normalization)},
                  {"opacity", s.style.opacity},                {"fade", s.style.fade},
                  {"bilinear", s.style.bilinear},              {"grid", s.style.show_grid}};
    j["tab"] = tab_name(s.tab);
    j["question"] = s.question;
    j["relevance_class"] = s.relevance_class;
    j["permutation_seed"] = s.permutation_seed;
    j["help"] = s.show_help;
    j["classroom"] = s.classroom;
    j["math_step"] = s.math_step;
    j["theme"] = theme_name(s.theme);
    j["clipped_text"] = s.clipped_text;
    j["longest_text"] = s.longest_text;
    j["recording_sweep_path"] = s.sweep_path.recording;
    j["sweep_path"] = json::array();
    for (int token : s.sweep_path.tokens) j["sweep_path"].push_back({t ? t->row_of(token) : -1, t ? t->col_of(token) : -1});
    j["prediction"] = prediction_json(s);
    j["live_exercise"] = live_exercise_json(s);
    j["lab"] = json::parse(lab_json(s.lab));  // the Learning lab
    j["matrix"] = matrix_json(s);
    j["side_by_side"] = side_by_side_json(s);
    j["tour_offered"] = s.tour_offered;  // false: the first run's offer is on screen
    j["tour_step"] = s.tour.tour ? s.tour.step : -1;  // -1: no tour on show
    j["tour_step_title"] = s.tour.tour ? s.tour.tour->steps[s.tour.step].title : "";
    j["tour_text"] = shown_tour_text(s);  // the card's sentences, numbers filled in
    j["tour_text_folded"] = s.tour.text_folded;
    j["tour_relevant_waiting"] = awaiting_relevant_choice(s);  // a step waits for its query (tour_query.h)
    j["tour_card"] = s.reported.tour_card;
    j["tour_key_sentence"] = s.tour.tour ? tour_card_text(s).key : "";  // the sentence the card leads with
    j["tour_key_rect"] = s.reported.tour_key;
    j["maps_on_screen"] = s.reported.maps;
    j["page_figure"] = {{"kind", s.reported.page_figure_kind}, {"rect", s.reported.page_figure}};
    j["text_input"] = s.text_input;
    j["browser"] = s.browser.mode == BrowserState::Mode::Closed        ? "closed"
                   : s.browser.mode == BrowserState::Mode::OpenImage   ? "image"
                   : s.browser.mode == BrowserState::Mode::OpenCompare ? "compare"
                   : s.browser.mode == BrowserState::Mode::OpenLesson  ? "lesson"
                   : s.browser.mode == BrowserState::Mode::OpenRun     ? "run"  // the Learning lab's
                   : s.browser.mode == BrowserState::Mode::OpenExercises ? "exercises"
                                                                        : "model";
    j["compare_image"] = s.compared.image_path;
    j["compare_ready"] = s.compared.ready();
    j["compare_generation"] = s.compared.generation;
    j["get_model"] = s.get_model.open;
    const DownloadView& d = s.get_model.download;
    j["download"] = {{"model", d.model},       {"file", d.file},         {"stage", d.stage},
                     {"done_mb", d.done_mb},   {"total_mb", d.total_mb}, {"seconds_left", d.seconds_left},
                     {"error", d.error}};
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);  // a path that is not UTF-8 must not stop it
}

const char* prediction_phase_name(AppState::Prediction::Phase phase) {
    switch (phase) {
        case AppState::Prediction::Phase::Off: return "off";
        case AppState::Prediction::Phase::Predicting: return "predicting";
        case AppState::Prediction::Phase::Revealed: return "revealed";
    }
    return "";
}

int math_step_number(const std::string& name) {
    for (int i = 0; i < kMathSteps; ++i)
        if (name == kMathStepNames[i]) return i + 1;
    return 0;
}

const char* theme_name(AppState::Theme theme) { return theme == AppState::Theme::Light ? "light" : "dark"; }

std::optional<AppState::Theme> theme_from_name(const std::string& name) {
    if (name == "dark") return AppState::Theme::Dark;
    if (name == "light") return AppState::Theme::Light;
    return std::nullopt;
}

const char* tab_name(AppState::Tab tab) {
    switch (tab) {
        case AppState::Tab::Math: return "math";
        case AppState::Tab::WhatIfs: return "whatifs";
        case AppState::Tab::Questions: return "questions";
    }
    return "";
}

std::string selection_slug(const AppState& s) {
    namespace fs = std::filesystem;
    std::string stem = s.loaded.image_path.empty() ? "vitscope" : fs::path(s.loaded.image_path).stem().string();
    const vit::Trace* t = s.trace();
    std::string slug = stem + "_L" + std::to_string(s.sel.layer);
    slug += s.sel.source == MapSource::MeanOfVisible ? "_Hmean" : "_H" + std::to_string(s.sel.head);
    if (t && t->is_patch(s.sel.query))
        slug += "_r" + std::to_string(t->row_of(s.sel.query)) + "c" + std::to_string(t->col_of(s.sel.query));
    else
        slug += s.sel.query == 0 ? "_cls" : "_t" + std::to_string(s.sel.query);
    // Keep file names portable: photo names may hold spaces or odd characters.
    for (char& ch : slug)
        if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_' && ch != '-' && ch != '.') ch = '_';
    return slug;
}

}  // namespace session
