#include "session/models/models_room.h"

#include <nlohmann/json.hpp>

#include "vit/base/error.h"

namespace session {

void apply_models(AppState& s, const ModelsActions& a) {
    const auto& x = std::get<act::ShowGetModel>(a);
    s.get_model.open = x.show;
    if (x.show) s.show_help = false;
}

void models_json(const AppState& s, const DrawnReport&, nlohmann::json& j) {
    j["get_model"] = s.get_model.open;
    const DownloadView& d = s.get_model.download;
    j["download"] = {{"model", d.model},     {"file", d.file},         {"stage", d.stage},
                     {"done_mb", d.done_mb}, {"total_mb", d.total_mb}, {"seconds_left", d.seconds_left},
                     {"error", d.error}};
}

namespace {

using ModelsOut = std::vector<ModelsRequest>;
constexpr VerbWait kWorkerInModels{0, true};

const Verb<ModelsRequest> kModelsVerbs[] = {
    {"open-model", VerbArg::Required,
     [](const ScriptCommand& c, const AppState&, ModelsOut& out) {
         out.push_back(cmd::OpenModel{c.arg});
         return kWorkerInModels;
     }},
    {"get-model", VerbArg::Required,
     [](const ScriptCommand& c, const AppState& s, ModelsOut& out) {
         if (!find_known_model(s.get_model.known, c.arg))
             throw vit::Error(c.where + ": no known model '" + c.arg + "'" +
                              (s.get_model.list_error.empty() ? "" : " (" + s.get_model.list_error + ")"));
         out.push_back(act::ShowGetModel{true});
         out.push_back(cmd::GetModel{c.arg});
         return kWorkerInModels;
     }},
};

}  // namespace

std::span<const Verb<ModelsRequest>> models_verbs() { return kModelsVerbs; }

}  // namespace session
