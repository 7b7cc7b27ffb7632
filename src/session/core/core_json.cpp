#include "session/core/core_json.h"

#include <nlohmann/json.hpp>

#include "session/base/selection_json.h"
#include "session/base/style_json.h"
#include "session/core/core_names.h"

namespace session {

nlohmann::json points_by_name(const std::vector<PageTarget>& targets) {
    nlohmann::json points = nlohmann::json::object();
    for (const PageTarget& p : targets) points[p.name] = {p.x, p.y};
    return points;
}

void core_json(const AppState& s, const DrawnReport& drawn, nlohmann::json& j) {
    using nlohmann::json;
    const vit::Trace* t = s.trace();
    j.update(selection_json(saved_selection(s.sel)));
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
    j["page_targets"] = points_by_name(drawn.page_targets);
    j["replace_question"] = s.replace_question;
    j["replace_buttons"] = points_by_name(drawn.replace_buttons);
    j["temperature"] = s.temperature;
    j["style"] = style_json(s.style);
    j["tab"] = tab_name(s.tab);
    j["help"] = s.show_help;
    j["classroom"] = s.classroom;
    j["math_step"] = s.math_step;
    j["theme"] = theme_name(s.theme);
    j["clipped_text"] = drawn.clipped_text;
    j["longest_text"] = drawn.longest_text;
    j["maps_on_screen"] = drawn.maps;
    j["recording_sweep_path"] = s.sweep_path.recording;
    j["sweep_path"] = json::array();
    for (int token : s.sweep_path.tokens)
        j["sweep_path"].push_back({t ? t->row_of(token) : -1, t ? t->col_of(token) : -1});
    j["text_input"] = s.text_input;
    j["compare_image"] = s.compared.image_path;
    j["compare_ready"] = s.compared.ready();
    j["compare_generation"] = s.compared.generation;
}

}  // namespace session
