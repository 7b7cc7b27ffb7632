#include "session/state_file.h"

#include <nlohmann/json.hpp>

#include "session/lab_report.h"
#include "session/live_exercise_report.h"
#include "session/prediction.h"
#include "session/selection_json.h"
#include "session/side_by_side.h"
#include "session/style_json.h"
#include "session/tour_query.h"
#include "session/tour_text.h"
#include "vit/analysis/attention_matrix.h"

namespace session {

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

std::string state_json(const AppState& s, const DrawnReport& drawn) {
    using nlohmann::json;
    const vit::Trace* t = s.trace();
    json j = selection_json(saved_selection(s.sel));
    j["row"] = t ? t->row_of(s.sel.query) : -1;
    j["col"] = t ? t->col_of(s.sel.query) : -1;
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
    j["image_view"] = drawn.image_view;
    j["head_thumbs"] = drawn.head_thumbs;
    j["layer_grid"] = drawn.layer_grid;
    j["input_size"] = s.loaded.input ? s.loaded.input->size : 0;
    auto by_name = [](const std::vector<PageTarget>& targets) {  // name: [x, y]
        json points = json::object();
        for (const PageTarget& p : targets) points[p.name] = {p.x, p.y};
        return points;
    };
    j["page_targets"] = by_name(drawn.page_targets);
    j["tour_offer_buttons"] = by_name(drawn.tour_offer_buttons);
    j["predict_buttons"] = by_name(drawn.predict_buttons);
    j["replace_question"] = s.replace_question;
    j["replace_buttons"] = by_name(drawn.replace_buttons);
    j["page_export_button"] = by_name(drawn.page_export_button);
    j["lab_open"] = by_name(drawn.lab_open);
    j["temperature"] = s.temperature;
    j["style"] = style_json(s.style);
    j["tab"] = tab_name(s.tab);
    j["question"] = s.question;
    j["relevance_class"] = s.relevance_class;
    j["permutation_seed"] = s.permutation_seed;
    j["help"] = s.show_help;
    j["classroom"] = s.classroom;
    j["math_step"] = s.math_step;
    j["theme"] = theme_name(s.theme);
    j["clipped_text"] = drawn.clipped_text;
    j["longest_text"] = drawn.longest_text;
    j["recording_sweep_path"] = s.sweep_path.recording;
    j["sweep_path"] = json::array();
    for (int token : s.sweep_path.tokens) j["sweep_path"].push_back({t ? t->row_of(token) : -1, t ? t->col_of(token) : -1});
    j["prediction"] = prediction_json(s);
    j["live_exercise"] = live_exercise_json(s);
    j["live_exercise"]["targets"] = json::object();
    for (const auto& [name, rect] : drawn.exercise_targets) j["live_exercise"]["targets"][name] = rect;
    j["lab"] = lab_json(s.lab);  // the Learning lab
    j["lab"]["maps"] = drawn.lab_maps;
    j["matrix"] = matrix_json(s);
    j["side_by_side"] = side_by_side_json(s);
    j["tour_offered"] = s.tour_offered;  // false: the first run's offer is on screen
    j["tour_step"] = s.tour.tour ? s.tour.step : -1;  // -1: no tour on show
    j["tour_step_title"] = s.tour.tour ? s.tour.tour->steps[s.tour.step].title : "";
    j["tour_text"] = shown_tour_text(s);  // the card's sentences, numbers filled in
    j["tour_text_folded"] = s.tour.text_folded;
    j["tour_relevant_waiting"] = awaiting_relevant_choice(s);  // a step waits for its query (tour_query.h)
    j["tour_card"] = drawn.tour_card;
    j["tour_key_sentence"] = s.tour.tour ? tour_card_text(s).key : "";  // the sentence the card leads with
    j["tour_key_rect"] = drawn.tour_key;
    j["maps_on_screen"] = drawn.maps;
    j["page_figure"] = {{"kind", drawn.page_figure_kind}, {"rect", drawn.page_figure}};
    j["text_input"] = s.text_input;
    j["browser"] = s.browser.mode == BrowserState::Mode::Closed        ? "closed"
                   : s.browser.mode == BrowserState::Mode::OpenImage   ? "image"
                   : s.browser.mode == BrowserState::Mode::OpenCompare ? "compare"
                   : s.browser.mode == BrowserState::Mode::OpenLesson  ? "lesson"
                   : s.browser.mode == BrowserState::Mode::OpenRun     ? "run"  // the Learning lab's
                   : s.browser.mode == BrowserState::Mode::OpenExercises ? "exercises"
                                                                        : "model";
    j["browser_dir"] = s.browser.dir;
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

}  // namespace session
