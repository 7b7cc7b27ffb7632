// "Global, not local": how far from its query a head's weight goes, measured
// on the patch grid. Distances are Chebyshev (max of the row and column
// offsets), so distance 1 is exactly the 3 x 3 neighbourhood a convolution sees.
#pragma once
#include <array>
#include <vector>

#include "vit/forward/forward.h"

namespace vit {

// The bands: same patch (0); 1; 2-3; 4-7; 8 or more.
constexpr int kDistanceBands = 5;
// The band of a Chebyshev distance (0..4).
int distance_band(int distance);
// "same", "1", "2-3", "4-7", "8+".
const char* distance_band_name(int band);
// The largest distance a 3 x 3 convolution reaches: bands 0 and 1 only.
constexpr int kConvolutionReach = 1;

struct DistanceMass {
    // Weight on patch keys in each band. Prefix tokens (CLS, registers) are
    // left out and the rest is not renormalised, so the bands sum to
    // 1 - prefix.
    std::array<double, kDistanceBands> band{};
    double prefix = 0;       // weight on CLS (+ distillation) and registers
    double within_3x3 = 0;   // bands 0 and 1: all a 3 x 3 convolution could use
    double beyond_3x3 = 0;   // patch weight a 3 x 3 convolution could not reach
    double far_quarter = 0;  // weight on farthest_quarter()'s patches
};

// For a patch query and any weight row over the trace's tokens (a real row or
// a what-if). Throws vit::Error when the query is not a patch or the row's
// length is not the token count.
DistanceMass distance_mass(const Trace& t, const Vec& weights, int query);
// The same for the trace's own weights of (layer, head).
DistanceMass distance_mass(const Trace& t, int layer, int head, int query);

// The query's patch weight inside and outside its 3 x 3 neighbourhood, as
// shares of its weight on patch keys (CLS and registers left out, the rest
// renormalised), beside the fair baseline: the share of the patches that lie
// outside the neighbourhood (what an even spread would put there; 187 of 196
// for a patch away from the border). Weight inside the neighbourhood is not
// evidence of reaching out, so it is reported apart.
struct NeighbourhoodShares {
    double inside = 0;           // on the query and its (up to) 8 neighbours
    double beyond = 0;           // on every other patch; inside + beyond = 1
    double beyond_baseline = 0;  // patches outside the neighbourhood / all patches
};
NeighbourhoodShares neighbourhood_shares(const Trace& t, const Vec& weights, int query);
NeighbourhoodShares neighbourhood_shares(const Trace& t, int layer, int head, int query);

// "Attention reaches beyond a convolution's window" holds for a head and
// query when most of the query's patch weight lies outside its 3 x 3
// neighbourhood.
constexpr double kReachesBeyondShare = 0.5;

// The head of `layer` that puts the largest share of the query's patch weight
// beyond its 3 x 3 neighbourhood (the first on ties): the example the global
// page shows, chosen on the photo on show; holds says whether that share
// reaches kReachesBeyondShare.
struct ReachingHead {
    int head = 0;
    NeighbourhoodShares shares;
    bool holds = false;
};
ReachingHead farthest_reaching_head(const Trace& t, int layer, int query);

// The quarter of the patches farthest from the query patch (row, col):
// ceil(grid^2 / 4) patch tokens, ranked by Chebyshev distance (largest first),
// ties by squared Euclidean distance (largest first), then by token index
// (smallest first). Returned as token indices, farthest first.
std::vector<int> farthest_quarter(const Trace& t, int query);

// For every head of a layer: the weight beyond `distance` patches (Chebyshev),
// averaged over all patch queries; prefix keys count as not beyond.
std::vector<double> mean_mass_beyond(const Trace& t, int layer, int distance = 3);

}  // namespace vit
