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

using Out = std::vector<ModelsRequest>;
constexpr VerbWait kWorker{0, true};

const Verb<ModelsRequest> kVerbs[] = {
    {"open-model", VerbArg::Required,
     [](const ScriptCommand& c, const AppState&, Out& out) {
         out.push_back(cmd::OpenModel{c.arg});
         return kWorker;
     }},
    {"get-model", VerbArg::Required,
     [](const ScriptCommand& c, const AppState& s, Out& out) {
         if (!find_known_model(s.get_model.known, c.arg))
             throw vit::Error(c.where + ": no known model '" + c.arg + "'" +
                              (s.get_model.list_error.empty() ? "" : " (" + s.get_model.list_error + ")"));
         out.push_back(act::ShowGetModel{true});
         out.push_back(cmd::GetModel{c.arg});
         return kWorker;
     }},
};

}  // namespace

std::span<const Verb<ModelsRequest>> models_verbs() { return kVerbs; }

}  // namespace session
