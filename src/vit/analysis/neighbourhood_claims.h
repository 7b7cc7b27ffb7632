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
//
// A claim holds when value >= ratio x baseline (the ratio is the claim's:
// 2 reads "twice what an even spread would give").
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

enum class ClaimKind { RegionBeyondNeighbourhood, BeyondNeighbourhood, HighNormTokens };
// "region_beyond_neighbourhood", "beyond_neighbourhood", "high_norm_tokens".
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
};
ClaimValue claim_value(const NeighbourhoodSplit& split, ClaimKind kind);
bool claim_holds(const ClaimValue& v, double ratio);

// The head whose claim value is largest for this query, among the heads of
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
