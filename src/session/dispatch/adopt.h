// Swapping in what the model worker made: a new model, photo or trace.
#pragma once
#include "session/state/app_state.h"

namespace session {

// Swaps in a new model/photo/trace, keeping the selection where it still
// makes sense (same layer, head and patch when they exist in the new trace).
void adopt(AppState& s, Loaded loaded);

}  // namespace session
