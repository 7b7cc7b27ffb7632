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

// The first step whose query takes the choice on this photo (before the
// photo's trace: the first with a patch query, which needs the trace); -1: none.
int first_step_needing_query(const AppState& s);

// Whether showing step n means waiting: one of the steps up to it (each step
// is shown over the ones before it) takes its query from the choice on this
// photo and the choice is not made yet, or needs a patch of a trace that has
// not arrived. Asks for the choice then (a model without a classifier, or no
// model, has none to wait for: the choice is made at once, as "none").
bool tour_waits_for_query(AppState& s, int n);

// Whether the tour uses the choice on this photo and it could not be made
// (no classifier, over the memory budget): its steps use the patches the file names.
bool tour_query_fell_back(const AppState& s);

// Called once a frame: takes a finished choice from s.analyses into the tour
// (showing the step asked for meanwhile, or the step on show again with it)
// and returns the job to start when a step waits for a choice that is not
// being made yet.
std::optional<cmd::RunAnalysis> follow_relevant_choice(AppState& s);

// The region a choose: or claim: line names: the tour's own, or for
// `relevant` (kAutomaticRegion; on photos that are not the tour's) the one
// the model's evidence outlines around the query on show
// (vit/analysis/relevant_region.h); nullopt where there is none (no region
// by that name, the choice not made on this photo, the query outside the
// relevant quarter). An empty name is the empty region.
inline constexpr const char* kAutomaticRegion = "relevant";
std::optional<vit::GridRegion> tour_region(const AppState& s, const std::string& name);

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
// the query is CLS or no patch is left. "argmax": the key the row weighs
// most, CLS and the query itself included.
int tour_pin_token(const AppState& s, const std::string& value);

}  // namespace session
