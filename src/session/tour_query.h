// The tour's query=relevant (tour.h): the patch vit::relevant_query chooses
// on the trace on show, made once per trace and kept in s.tour.
#pragma once
#include "state.h"
#include "vit/analysis/relevant_query.h"

namespace session {

// The choice for the trace on show, if it was made; null otherwise (not yet
// needed, or it could not be made: no model or classifier, over the memory budget).
const vit::RelevantQueryChoice* relevant_choice(const AppState& s);

// The same, made now when it was not for this trace (one backward pass).
const vit::RelevantQueryChoice* make_relevant_choice(AppState& s);

// The token "cls" or "ROW,COL" (as parse_tour checked it) names on this
// trace: 0 for CLS, -1 for a patch off its grid (another input size).
int grid_token(const vit::Trace& t, const std::string& value);

// The token a step's query value selects: 0 for "cls", the patch for
// "ROW,COL" (-1 off this grid), the chosen patch for "relevant" (and for
// ROW,COL on another photo when the tour says other-query: relevant),
// falling back to ROW,COL (or -1) where no patch can be chosen.
int tour_query_token(AppState& s, const std::string& value);

}  // namespace session
