// The Learning lab's room: its actions (act::Lab, applied by apply_lab), its
// commands (cmd::Lab, carried out by the window's LabController: reading
// runs, training), its state-file part and its script verbs:
//   learning-lab open | close | RUN    as File > Learning lab… (RUN: open that run's folder in it), then 2 frames
//   lab-train TASK [no-position] [steps=N] [dir=DIR]   as the lab's Train (runs go into DIR, else the export folder)
//   lab-cancel                         as the lab's Cancel
//   lab-wait                           until no training runs (it finished, was cancelled or failed), then 2 frames
//   lab-step S | first | last | next | back   the timeline: the last checkpoint at or before step S, ...
//   lab-layer L | auto                 the layer whose maps show (auto: the layer and head singling out most)
//   lab-sample I                       the held-out sample
//   lab-next-wrong                     the next sample the checkpoint shown answers wrongly
//   lab-query 0 | 1 | cls              the query on the first square (left_of: the red one), the other, the class token
//   lab-swap on | off                  "swap the squares": the checkpoint on the sample with them exchanged
//   lab-export [DIR]                   as File > Export the lab's timeline as slides (DIR: a new folder)
//   lab-explore                        as the lab's "Open in the explorer" (then waits)
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
struct Lab {
    LabAction action;
};  // the Learning lab's own state (lab_state.h)
}  // namespace act

namespace cmd {
struct Lab {
    LabCommand command;
};  // the Learning lab's runs and training (LabController)
}  // namespace cmd

using LabActions = std::variant<act::Lab>;
using LabCommands = std::variant<cmd::Lab>;
using LabRequest = joined_variant_t<LabActions, LabCommands>;

void apply_lab(AppState& s, const LabActions& a);
void lab_json(const AppState& s, const DrawnReport& drawn, nlohmann::json& j);
std::span<const Verb<LabRequest>> lab_verbs();

}  // namespace session
