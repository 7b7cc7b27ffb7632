// The models room's action (the Get a model… dialog), commands (opening a
// model folder, downloading a known model, carried out by the window),
// state-file part and script verbs:
//   open-model DIR   as File > Open model (then waits)
//   get-model NAME   as File > Get a model… on a known name: downloads it (from
//                    $VITSCOPE_MODEL_MIRROR when set) and opens it, or shows the error (then waits)
#pragma once
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
struct ShowGetModel {
    bool show;
};  // the File > Get a model… dialog (one dialog at a time)
}  // namespace act

namespace cmd {
struct OpenModel {
    std::string dir;
};
struct GetModel {
    std::string name;
};  // download a known model (or open it when already there)
struct CancelDownload {};
}  // namespace cmd

using ModelsActions = std::variant<act::ShowGetModel>;
using ModelsCommands = std::variant<cmd::OpenModel, cmd::GetModel, cmd::CancelDownload>;
using ModelsRequest = joined_variant_t<ModelsActions, ModelsCommands>;

void apply_models(AppState& s, const ModelsActions& a);
void models_json(const AppState& s, const DrawnReport& drawn, nlohmann::json& j);
std::span<const Verb<ModelsRequest>> models_verbs();

}  // namespace session
