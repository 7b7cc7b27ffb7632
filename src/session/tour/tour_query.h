// The tour's query=relevant (tour.h): the patch vit::relevant_query chooses
// on the trace on show, made once per trace and kept in s.tour. Making it
// takes one backward pass (0.3 s at 224 px, seconds at 448 px), so it runs
// off the window's thread: a step that needs it asks for it, shows the file's
// patch meanwhile, and is shown again once the choice arrives.
#pragma once
#include <optional>
#include <string>

#include "session/core/core_actions.h"
#include "session/state/app_state.h"
#include "vit/analysis/relevant_query.h"

namespace session {

// The choice for the trace on show, if it was made; null otherwise (not yet
// made, or it could not be made: no model or classifier, over the memory budget).
const vit::RelevantQueryChoice* relevant_choice(const AppState& s);

// A step waits for the choice on the trace on show.
bool awaiting_relevant_choice(const AppState& s);

// Called once a frame: takes a finished choice from s.analyses into the tour
// (showing the waiting step again with it) and returns the job to start when
// a step waits for a choice that is not being made yet.
std::optional<cmd::RunAnalysis> follow_relevant_choice(AppState& s);

// For the command line and exports, which have no frames to wait through:
// makes the choice at once, on this thread, when `tour` needs it on this photo.
void make_relevant_choice_now(AppState& s, const Tour& tour);

// The token "cls" or "ROW,COL" (as parse_tour checked it) names on this
// trace: 0 for CLS, -1 for a patch off its grid (another input size).
int grid_token(const vit::Trace& t, const std::string& value);

// The token a step's query value selects: 0 for "cls", the patch for
// "ROW,COL" (-1 off this grid), the chosen patch for "relevant" (and for
// ROW,COL on another photo when the tour says other-query: relevant). Until
// the choice is made (awaiting_relevant_choice) and where none can be made,
// ROW,COL's patch, and -1 for "relevant": the query stays.
int tour_query_token(AppState& s, const std::string& value);

// The token a step's pin value (not "none") selects: the patch for ROW,COL
// (-1 off this grid); for "top" (and for ROW,COL on another photo when the
// tour says other-pin: top) the patch key other than the query that the row
// on show weighs most, leaving out the high-norm tokens entering the layer
// (they draw weight for what they store, not for what they show); -1 when
// the query is CLS or no patch is left.
int tour_pin_token(const AppState& s, const std::string& value);

}  // namespace session
