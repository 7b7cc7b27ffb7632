// The output rule (vit/base/output_file.h) for the window: what is open (the
// photo, the comparison photo, the tour file, the model's files) is never
// written over; an existing file is replaced only when the person said so.
#pragma once
#include "session/state/app_state.h"
#include "vit/base/output_file.h"

namespace session {

vit::OutputRules output_rules(const AppState& s, bool replace);

}  // namespace session
