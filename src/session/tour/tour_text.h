// A tour step's sentences with their numbers filled in from the trace on
// show: nothing in a tour's text is a number written by hand.
//   {grid} {patch} {input} {patches} {tokens} {layers} {heads} {d_k}
//   {layer} {head} {query}: the model and the selection
//   {key} {score} {scaled} {weight}: the key the math panel explains (pinned,
//       else the strongest) and its raw score q·k, q·k/√dₖ and softmax weight
//   {unscaled_weight}: that key's weight had the scores not been divided by
//       √dₖ; {key_rank}: its rank among the row's keys by raw score ("2 of
//       197"); {key_match}: the key's standing said in words ("the key this
//       query's q matches best in this head", or the best after the query's
//       own key, with its rank, or its rank after the key that ranks first)
//   {top_key} {top_weight}: the key with the largest weight in the shown row
//   {cls_weight}: the shown row's weight on CLS, in % ("83%"; one decimal below 1%)
//   {beyond_3x3} {far_quarter}: its patch weight outside the query's 3 × 3
//       neighbourhood, and on the farthest quarter of the patches, in %
//   {distance}: the head's mean attention distance in pixels (ViT paper Fig. 7)
//   {distance_note}: where high-norm tokens enter the layer, ", or 93 px with
//       the 4 high-norm tokens entering the layer left out (45% of its
//       queries' weight goes to them)"; empty where none do
//       (vit/analysis/high_norm_distance.h)
//   {share:REGION}: the shown row's patch weight that lands on the region, in %
//   {area:REGION}: the region's share of the patches, in %
//   {claim_value} {claim_baseline}: the step's claim checked on the selected
//       head and query (tour.h): its value and its baseline, in %; for
//       high_norm_tokens the selected layer's largest and median patch
//       norms ("412.3"), for unscaled_top_weight the two weights ("0.941");
//       {claim_ratio}: the ratio it holds at ("10"; "0.9": the threshold);
//       {claim_times}: the value over the baseline ("6.1×"); {claim_even}:
//       content_reach's second baseline, an even spread's share, in %
//   {neighbourhood}: the selected head's patch weight inside the query's
//       3 × 3 neighbourhood, in % (the claims' normalisation)
//   {high_norm_tokens}: the high-norm patch tokens leaving the selected layer
//       ("none", or "4 patches: (0, 0), ..."); {high_norm_times}: the largest
//       norm over the median patch norm ("38×"); {high_norm_cls}: CLS's weight
//       on them (mean of the layer's heads), {high_norm_cls_head}: the
//       selected head's, {high_norm_queries}: every patch query's, averaged
//       over queries and heads, in % of all their weight; {high_norm_first}:
//       the first layer that has them (vit/analysis/token_norms.h)
//   {top1} {top1_probability} {classes}: the model's answer, its softmax
//       probability ("69.6%"), and how many classes it can answer with
//   {query_rank} {relevant_quarter}: where gradient-weighted rollout for the
//       top-1 class ranks the query among the patches (1: the most
//       relevant), and how many patches its top quarter holds; {reach_relevant}:
//       how many of the selected head's content_reach patches lie in that
//       quarter ("7 of the 10"). These three read the relevance the tour's
//       query=relevant was chosen by (tour_query.h): "—" before it was
// "The shown row" is what the photo shows: the selected head, or the mean of
// the visible heads.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "session/state/app_state.h"
#include "session/tour/tour.h"

namespace session {

// The first placeholder in text that is not one of the above (or names a
// region the tour does not define); empty when there is none.
std::string unknown_placeholder(const std::string& text, const Tour& tour);

// Whether the paragraph has a {share:…} or {area:…}: its numbers mean
// something only on the tour's own photo at the tour's grid.
bool names_region(const std::string& text);

// Whether what is open is the tour's own photo (by file name) at the grid
// its regions were drawn on: own- lines show, and region claims are checked.
bool own_photo(const AppState& s, const Tour& tour);

// The current step's claim, checked on the selected layer, head and query:
// none when the step makes none on this photo or the query is not a patch
// (high_norm_tokens, a claim about the layer, takes any query).
struct TourClaimCheck {
    vit::ClaimKind kind = vit::ClaimKind::BeyondNeighbourhood;
    std::string region;  // region claims: the region's name
    int layer = 0, head = 0, query = 0;
    double ratio = 1;
    vit::NeighbourhoodSplit split;
    vit::ClaimValue value;
    bool holds = false;
};
std::optional<TourClaimCheck> tour_claim(const AppState& s);

// Whether the regions apply to what is open: the tour's photo (by file name)
// at the grid its regions were drawn on.
bool regions_apply(const AppState& s, const Tour& tour);

// The paragraph with every placeholder replaced by its value; "—" where a
// value does not exist for the selection (e.g. distances with CLS as query).
std::string fill_tour_text(const std::string& text, const AppState& s, const Tour& tour);

// Whether the paragraph has a placeholder about the model's answer ({top1},
// {top1_probability}, {classes}: it means something only where the model
// has a classifier), or about the relevance the tour's query was chosen by
// ({query_rank}, {relevant_quarter}, {reach_relevant}: only once that choice
// was made on the photo on show).
bool needs_answer(const std::string& text);
bool needs_relevance(const std::string& text);

// The current step's paragraphs as shown, filled in; those that name a
// region are left out where the regions do not apply, and those that need
// the answer where there is none (left_out says so).
std::vector<std::string> shown_tour_text(const AppState& s, bool* left_out = nullptr);

// The first placeholder of the current step's paragraphs for what is open
// that has no value here: one shown_tour_text would leave its paragraph out
// for (no answer, no relevance), or one filled as "—". Empty when every one
// fills (paragraphs that name a region where the regions do not apply are
// left out on purpose, and not counted).
std::string unfilled_placeholder(const AppState& s);

// A paragraph cut into sentences: after ". " ("! ", "? ") before a capital,
// a digit or a placeholder; each keeps its stop.
std::vector<std::string> tour_sentences(const std::string& text);

// The card as a projector shows it: its key sentence first (the step's
// key: line that shows, tour.h; else the sentence with the step's claim and its number: in the paragraph that holds or
// fails, else any with {claim_value}; else the first sentence with a number
// from the trace; else the first sentence), then the rest of the
// shown paragraphs, the key sentence taken out of its own. left_out: as
// shown_tour_text's.
struct TourCardText {
    std::string status;  // what the card waits for, or why the file's patches are used; empty: nothing to say
    std::string key;
    std::vector<std::string> rest;
    bool left_out = false;
};
TourCardText tour_card_text(const AppState& s);

}  // namespace session
