// The classroom room's actions (apply_classroom), state-file part and script verb:
//   side-by-side L,H/L,H | off   as View > Side by side with those panes (",second" after a
//                                pane: the second photo), or back to the panels; then 2 frames
#pragma once
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <variant>

#include "session/base/drawn_report.h"
#include "session/base/script_verb.h"
#include "session/base/variant_tools.h"
#include "session/state/app_state.h"

namespace session {

namespace act {
struct StartPredict {};  // hides the map; no patch marked yet
struct ToggleMark {
    int token;
};                     // while predicting: marks a patch, or unmarks it
struct Reveal {};      // shows the map and the marked patches' weight
struct EndPredict {};  // back to the plain map
struct ShowSideBySide {
    bool open;
};  // opening starts from the selected head and the next one
struct SetSidePane {
    bool right;
    ClassroomRoom::SidePane pane;
};  // clamped; the second photo only when there is one
}  // namespace act

using ClassroomActions = std::variant<act::StartPredict, act::ToggleMark, act::Reveal, act::EndPredict,
                                      act::ShowSideBySide, act::SetSidePane>;
using ClassroomCommands = std::variant<>;
using ClassroomRequest = joined_variant_t<ClassroomActions, ClassroomCommands>;

void apply_classroom(AppState& s, const ClassroomActions& a);
void classroom_json(const AppState& s, const DrawnReport& drawn, nlohmann::json& j);
std::span<const Verb<ClassroomRequest>> classroom_verbs();

// "off", "predicting", "revealed": the prediction's phase as scripts and the state file name it.
const char* prediction_phase_name(ClassroomRoom::Prediction::Phase phase);

}  // namespace session
