// The core room's script verbs (window_script.h lists the script format):
//   wait | frames N | select ROW,COL|cls | layer L | head H | toggle-head H | mean
//   pin ROW,COL|none | temperature T | style KEY=VALUE ... | tab NAME | size PX
//   open-image PATH | compare PATH | screenshot [PATH] | export [PATH]
//   record-path on|off | export-sweep [PATH]
//   classroom on|off | theme dark|light | quit
#pragma once
#include <span>
#include <vector>

#include "session/base/script_verb.h"
#include "session/base/variant_tools.h"
#include "session/core/core_actions.h"

namespace session {

using CoreRequest = joined_variant_t<CoreActions, CoreCommands>;
std::span<const Verb<CoreRequest>> core_verbs();

// The trace a verb needs: the model has run on a photo (else one line naming the script's line).
const vit::Trace& need_trace(const ScriptCommand& c, const AppState& s);

}  // namespace session
