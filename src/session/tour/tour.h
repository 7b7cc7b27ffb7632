// A guided tour: steps that each set the window's state (tab, page, layer,
// head, query, pinned key, map source) and say two or three plain sentences
// about it, with numbers computed from the trace on show ({share:dog}).
// Tours are text files (assets/tours/*.tour) a teacher can write:
//
//   # a comment
//   title: How one patch looks at the photo
//   photo: dog.jpg                  the photo the examples (and regions) refer to
//   region dog: 7,1-4 8,0-5         patches by row: ROW,COL or ROW,FIRST-LAST
//   step: The photo, cut into patches
//   state: tab=math layer=0 head=0 query=cls pin=none map=head
//   panel: photo                    highlighted: photo, heads (and layers), inside (one head: the tabs)
//   text: It becomes a {grid} × {grid} grid of {patch}-pixel patches.
//
//   words: dog ear animal           words naming what is on the tour's photo
//   other-query: relevant           on other photos, every query=ROW,COL is query=relevant
//   other-pin: top                  on other photos, every pin=ROW,COL is pin=top
//
// State keys: tab (math, whatifs, questions), question (a page name), layer,
// head, query (cls, ROW,COL or relevant), pin (none, cls, ROW,COL, top or argmax), map (head or mean),
// scale (rowmax, absolute or log: the maps' normalisation; a step about
// spread shows it on a scale where spread looks spread), math (the step
// classroom mode shows: query, key, score, scale, softmax, value or output).
// Unset keys keep what the user has. The placeholders are listed in
// tour_text.h; the values come from fill_tour_text.
//
// The query. ROW,COL is a patch of the tour's photo, chosen by hand; on
// another photo that patch shows whatever lies there. query=relevant is a
// patch the model uses for its answer (vit/analysis/relevant_query.h: in the
// top quarter of gradient-weighted rollout for the top-1 class, no high-norm
// token, off the border where possible; one backward pass per photo). The
// header line `other-query: relevant` keeps the hand-picked patch on the
// tour's own photo and takes the relevant one on every other photo. Where
// no patch can be chosen (a model without a classifier) ROW,COL stays.
// pin=top is the patch key the row on show weighs most (the largest raw
// score), leaving out the query itself and the high-norm tokens entering the
// layer (tour_query.h); it is found after the step's head is chosen.
// pin=argmax is the key the row weighs most, whatever it is (CLS, the query
// itself, a high-norm token): the key the scores' scaling acts on most.
//
// Claims. A step that says something about the photo checks it there:
//   choose: region_beyond_neighbourhood dog       the head (of any layer, of
//   choose: beyond_neighbourhood layer=0          layer=L or of layers A-B)
//   choose: beyond_neighbourhood layer=0-6        with the largest value for
//   choose: content_reach                         the step's query
//   choose: unscaled_top_weight
//   claim: region_beyond_neighbourhood dog ratio=2  holds when value >= ratio x baseline
//   other-claim: region_beyond_neighbourhood relevant ratio=2   the automatic
//       region on other photos: the patches of the top quarter of the
//       relevance map for the answer connected to the query (tour_query.h)
//   claim: content_reach ratio=3                   (beyond_neighbourhood: and value >= 0.5;
//                                                  content_reach: and value >= ratio x even)
//   claim: unscaled_top_weight                     holds when value >= 0.9 (no ratio)
//   claim: high_norm_tokens                        the selected layer has a patch token
//                                                  at least 10 x the median patch norm
//   holds: ... {claim_value} ... {claim_baseline}   shown when it holds
//   fails: ... the best head found gives {claim_value} ...   shown when not
// (the claims and their baselines: vit/analysis/neighbourhood_claims.h).
// Which photo a line is for: prefixed own- (own-text:,
// own-choose:, own-claim:, own-holds:, own-fails:) only on the tour's own
// photo, other- only on any other photo, no prefix on every photo. A line
// for other photos must not name the tour's regions or its words (refused).
// The key sentence: what classroom mode and the slides show bold, and all a
// class may read. It must stand alone: name its subject, state the claim
// with its number, one idea, no "It"/"This"/"Those" pointing back at text
// folded away. A step says it once per case:
//   key: Layer {layer} has {heads} heads.         shown on every photo
//   key-holds: Head {head} ... {claim_value} ...   shown when the claim holds
//   key-fails: No head ... {claim_value} ...       shown when it fails
// (own- and other- prefixes as for text:). A key line is one sentence, and
// it opens the card: the step's other lines follow it. A step with no key
// line shown leads with the sentence that carries the claim's number.
// Frames: `frame: contributions` scrolls the math panel to its table.
// Lessons: `lesson: FILE.vitscope` (a path relative to the tour file) opens
// that lesson when the step is shown (its photo, model, size and selection),
// then sets the step's own state keys over it.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "vit/analysis/neighbourhood_claims.h"

namespace session {

// Which photos a line of a step is for.
enum class TourPhoto { Any, Own, Other };
// When a paragraph shows: always (text:), or as the step's claim holds or fails.
enum class TourWhen { Always, Holds, Fails };

struct TourParagraph {
    std::string text;  // placeholders unfilled
    TourPhoto photo = TourPhoto::Any;
    TourWhen when = TourWhen::Always;
    bool key = false;  // key:, key-holds:, key-fails: the step's key sentence (what a projector shows bold)
};

// choose: and claim: lines: a claim about the query's weight, its region
// (region claims only), the layers a choice is limited to (layer=L or
// layer=A-B; first -1: every layer), and the ratio to its baseline that
// makes it hold.
struct TourCriterion {
    vit::ClaimKind kind = vit::ClaimKind::BeyondNeighbourhood;
    std::string region;
    int first_layer = -1, last_layer = -1;
    double ratio = 1;
};

struct TourStep {
    int line = 0;        // where "step:" is in the file
    std::string title;   // shown on every photo: it names nothing on the tour's photo
    std::string panel;   // the panel highlighted; empty: none
    std::string frame;   // the part of the panel scrolled into view ("contributions"); empty: none
    std::string lesson;  // lesson: FILE (beside the tour file): the window it starts from; empty: none
    std::vector<TourParagraph> text;
    // The state the step sets (unset: left as the user has it).
    std::optional<std::string> tab, question, query, pin, map, scale;
    std::optional<int> layer, head;
    // Index 0: on the tour's own photo, 1: on others.
    std::optional<TourCriterion> choose[2], claim[2];
    std::optional<int> math_step;  // math=NAME: the step classroom mode's one-step panel shows (1..7)
};

struct Tour {
    std::string path;  // the file it was read from
    std::string title;
    std::string photo;  // file name of the photo the examples refer to ("dog.jpg")
    std::map<std::string, std::vector<std::pair<int, int>>> regions;  // name -> (row, col) on the model's grid
    std::vector<std::string> words;     // what the photo shows ("dog"): only own- lines may say them
    bool other_query_relevant = false;  // other-query: relevant
    bool other_pin_top = false;         // other-pin: top
    // Each step shown over the tour's start and the steps before it, so Back is the reverse of Next
    // (tour_show.h); false for an exercise set, whose exercises start from what the student left.
    bool replays_steps = true;
    std::vector<TourStep> steps;
};

// The panels a step can highlight, and the parts a step can frame.
const std::vector<std::string>& tour_panels();
const std::vector<std::string>& tour_frames();

// Parses a tour; `name` prefixes the errors. Throws vit::Error "NAME:LINE: what".
Tour parse_tour(const std::string& text, const std::string& name);
// Reads and parses the file (bounds in tour_limits.h; a UTF-8 byte order mark
// is skipped). Throws vit::Error.
Tour read_tour(const std::string& path);

}  // namespace session
