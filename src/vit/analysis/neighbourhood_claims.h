// Claims about where a patch query's attention goes, with a fair baseline.
// The query's own 3 x 3 neighbourhood (what a 3 x 3 convolution sees) is
// reported apart: weight there is no evidence of reaching out. Shares are of
// the weight on patch keys (CLS and registers left out, the rest renormalised),
// and each comes with the share the same patches would get from attention
// spread evenly over the patches outside the neighbourhood.
//
//   region_beyond_neighbourhood: weight on the region's patches outside the
//       neighbourhood; baseline = those patches / all patches outside it
//   beyond_neighbourhood: weight on all patches outside the neighbourhood;
//       baseline = patches outside it / all patches
//   selective_reach: weight on the query's 10 most-weighted patches outside
//       the neighbourhood, leaving out the high-norm tokens entering the
//       layer (token_norms.h: late heads that pour their weight into them
//       are not reaching for content); baseline = 10 / all patches, what an
//       even spread gives 10 patches. The share stays one of all the patch
//       weight, the high-norm tokens' included, so weight on them counts
//       against the claim
//   unscaled_top_weight: the largest weight of the query's row had the
//       scores not been divided by sqrt(d_k) (softmax of the raw q . k);
//       baseline = the row's largest weight as the model computes it (with
//       the division). Not a share of the patch weight: CLS counts too
//
// A claim holds when value >= ratio x baseline (the ratio is the claim's:
// 2 reads "twice what an even spread would give"), with two exceptions:
// beyond_neighbourhood also needs at least half of the patch weight beyond
// the neighbourhood (a sentence built on it says most of the weight is where
// a convolution could not see it), and unscaled_top_weight holds when value
// >= kSaturatedWeight, one key taking nearly all the weight.
//
// One claim is about a layer, not a query: high_norm_tokens (token_norms.h),
// value = the largest patch token's norm leaving the layer, baseline = the
// median patch token's norm there; its ratio is the high-norm threshold.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "vit/forward/forward.h"

namespace vit {

enum class ClaimKind {
    RegionBeyondNeighbourhood,
    BeyondNeighbourhood,
    HighNormTokens,
    SelectiveReach,
    UnscaledTopWeight,
    ContentReach
};
// "region_beyond_neighbourhood", "beyond_neighbourhood", "high_norm_tokens",
// "selective_reach", "unscaled_top_weight", "content_reach".
const char* claim_name(ClaimKind kind);
// The kind named so; false when no claim has that name.
bool claim_from_name(const std::string& name, ClaimKind* kind);

using GridRegion = std::vector<std::pair<int, int>>;  // (row, col) patches; off-grid ones are ignored

struct NeighbourhoodSplit {
    double within = 0;           // share of the patch weight inside the 3 x 3 neighbourhood (query included)
    double beyond = 0;           // 1 - within
    double beyond_baseline = 0;  // patches outside the neighbourhood / all patches
    double region_beyond = 0;    // share of the patch weight on the region's patches outside it
    double region_baseline = 0;  // those patches / the patches outside the neighbourhood
};

// For a patch query and a weight row over the trace's tokens. Throws
// vit::Error when the query is not a patch or the row's length is wrong.
NeighbourhoodSplit neighbourhood_split(const Trace& t, const Vec& weights, int query, const GridRegion& region = {});

struct ClaimValue {
    double value = 0, baseline = 0;
    double even = 0;  // content_reach only: an even spread's share, which the value must also beat
};
// region_beyond_neighbourhood and beyond_neighbourhood from the split.
ClaimValue claim_value(const NeighbourhoodSplit& split, ClaimKind kind);
// value >= ratio x baseline (and baseline > 0): the rule of most claims
// (content_reach: and value >= ratio x even).
bool claim_holds(const ClaimValue& v, double ratio);
// The rule of that kind of claim, exceptions included (above).
bool claim_holds(ClaimKind kind, const ClaimValue& v, double ratio);

constexpr int kReachPatches = 10;         // selective_reach's far patches
constexpr double kSaturatedWeight = 0.9;  // unscaled_top_weight holds from here

struct SelectiveReach {
    ClaimValue value;
    std::vector<int> patches;   // the far patches counted (tokens), the heaviest first
    std::vector<int> left_out;  // the high-norm tokens not counted
};
// For a patch query and a weight row; `left_out` lists tokens that are not
// candidates (the high-norm tokens entering the row's layer). With fewer than
// 10 candidates it counts them all, and the baseline is their count / all
// patches. Throws vit::Error as neighbourhood_split does.
SelectiveReach selective_reach(const Trace& t, const Vec& weights, int query, const std::vector<int>& left_out);

// unscaled_top_weight of one head's row (the trace must hold Q and K).
ClaimValue unscaled_top_weight(const Trace& t, int layer, int head, int query);
// What that claim says of the row, to follow "without the division": the two
// weights with their base, then "one key would take nearly all of it" only
// when it holds, else that no key would (the math panel's and the scaling
// page's sentences both end so).
std::string unscaled_top_weight_clause(const ClaimValue& v);

// Any claim about one head's row for a patch query (not high_norm_tokens,
// which is about a layer); region for region_beyond_neighbourhood.
// selective_reach needs the trace's token states. Throws vit::Error.
ClaimValue head_claim(const Trace& t, int layer, int head, int query, ClaimKind kind, const GridRegion& region = {});

// How a choice ranks a head: its value, except for content_reach (its value
// over the larger of its two baselines: the head that beats both most) and
// for unscaled_top_weight, where
// the heads it holds for come first, and among them the one whose largest
// weight the division by sqrt(d_k) changes most (1 + value - baseline): a
// head that saturates with the division too shows nothing about it.
double choice_score(ClaimKind kind, const ClaimValue& v);

// The head whose choice_score is largest for this query, among the heads of
// layers first..last (first < 0: every layer; last < 0: first alone); ties go
// to the earlier layer, then the lower head. Throws vit::Error when the
// layers are not the trace's, or for high_norm_tokens (no head to choose).
struct ChosenHead {
    int layer = 0, head = 0;
    ClaimValue value;
};
ChosenHead strongest_head(const Trace& t, int query, ClaimKind kind, const GridRegion& region, int first = -1,
                          int last = -1);

}  // namespace vit
