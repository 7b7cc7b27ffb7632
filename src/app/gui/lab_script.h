// The Learning lab's script verbs (window_script.h runs them):
//   learning-lab open | close | RUN    as File > Learning lab… (RUN: open that run's folder in it), then 2 frames
//   lab-train TASK [no-position] [steps=N] [dir=DIR]   as the lab's Train (runs go into DIR, else the export folder)
//   lab-cancel                         as the lab's Cancel
//   lab-wait                           until no training runs (it finished, was cancelled or failed), then 2 frames
//   lab-step S | first | last | next | back   the timeline: the last checkpoint at or before step S, ...
//   lab-layer L | auto                 the layer whose maps show (auto: the lab's choice)
//   lab-sample I                       the held-out sample
//   lab-query 0 | 1                    the query on the first square (the one the task asks about) or the other
//   lab-explore                        as "Open this checkpoint in the explorer" (then waits)
#pragma once
#include <string>
#include <vector>

#include "app/gui/window_script.h"

namespace app {

bool is_lab_verb(const std::string& verb);

// What a lab verb asks the runner to do after it: frames to let render, and
// whether to wait for the worker (waiting) or for the training to end (lab_waiting).
struct LabScriptWait {
    int frames = 0;
    bool worker = false;
    bool training = false;
};

// Throws vit::Error naming the script's line for a bad argument.
LabScriptWait lab_command(const ScriptCommand& c, const session::AppState& s, std::vector<session::Request>& out);

}  // namespace app
