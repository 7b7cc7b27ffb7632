// Every room's script verbs (NAME_verbs in each NAME_room.h) in one table,
// for the window's script runner (app/gui/window_script.h) and its parser.
#pragma once
#include <functional>
#include <string_view>
#include <vector>

#include "session/base/script_verb.h"
#include "session/dispatch/requests.h"

namespace session {

struct ScriptVerb {
    std::string_view name;
    VerbArg arg;
    std::function<VerbWait(const ScriptCommand&, const AppState&, std::vector<Request>&)> run;
};

// The verb of that name, or null.
const ScriptVerb* find_script_verb(std::string_view name);
// All of them, room by room in the rooms' order.
const std::vector<ScriptVerb>& script_verbs();

}  // namespace session
