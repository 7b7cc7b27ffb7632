// content_reach: whether a head reaches for particular far patches for what
// they hold, measured against that same head's position-only kernel on this
// photo, so that a content-free blur (a Gaussian over the grid) fails it by
// construction: its kernel is itself.
//
//   far: patches at least kFarPatches from the query (Chebyshev distance:
//       max(|row - row_q|, |col - col_q|) >= 3), high-norm tokens entering the
//       layer left out (token_norms.h: late heads pour weight into them for
//       what they store, not for the pixels there)
//   value: the share of the query's patch weight (high-norm keys left out,
//       the rest renormalised) on its kReachPatches heaviest far patches
//   kernel: the head's mean weight at each relative offset (dr, dc), averaged
//       over every patch query of the photo (high-norm queries and keys left
//       out, each row renormalised over the keys kept)
//   baseline: the share the kernel, centred on the query and renormalised
//       over the same keys as the value, puts on those same patches
//   even: what weight spread evenly over all patches gives them (count /
//       patches)
//
// It holds when value >= ratio x baseline and value >= ratio x even (the
// tour asks ratio 3): the head beats its own positional habit and an even
// spread alike.
#pragma once
#include <vector>

#include "vit/analysis/neighbourhood_claims.h"
#include "vit/forward/forward.h"

namespace vit {

constexpr int kFarPatches = 3;  // content_reach's far: at least this many patches away

// A head's mean weight at each relative offset over one photo's patch queries.
struct PositionKernel {
    int grid = 0;
    std::vector<double> mean;  // (2 grid - 1)^2 offsets, row-major from (-(grid-1), -(grid-1))
    // The kernel at offset (dr, dc) (key minus query); 0 where no query had a key there.
    double at(int dr, int dc) const { return mean[(dr + grid - 1) * (2 * grid - 1) + dc + grid - 1]; }
};
// attn: one head's tokens x tokens weights; left_out: tokens neither queries nor keys.
PositionKernel position_kernel(const Trace& t, const Mat& attn, const std::vector<int>& left_out);

struct ContentReach {
    ClaimValue value;           // value, baseline (the kernel's share) and even
    std::vector<int> patches;   // the far patches counted (tokens), the heaviest first
    std::vector<int> left_out;  // the high-norm tokens not counted
};
// For a patch query of a head whose kernel is given. With fewer than
// kReachPatches far patches it counts them all. Throws vit::Error when the
// query is not a patch.
ContentReach content_reach(const Trace& t, const Mat& attn, const PositionKernel& kernel, int query,
                           const std::vector<int>& left_out);
// One head's claim, leaving out the high-norm tokens entering its layer (the
// trace must hold token states). Throws vit::Error.
ContentReach content_reach(const Trace& t, int layer, int head, int query);

// value / max(baseline, even): how many times the stronger of the two
// baselines the value is (0 with no baseline); it holds at ratio r exactly
// when this is >= r.
double content_reach_margin(const ClaimValue& v);

}  // namespace vit
