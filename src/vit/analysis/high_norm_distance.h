// How far a head looks once the high-norm tokens are left out. From layer 7
// on, the default model's four corner tokens grow to 30-47 times the median
// patch norm and late heads pour much of their weight into them (token_norms.h):
// weight on a corner is "far" for most queries, so a late head's mean
// attention distance and its share beyond 3 patches mostly measure those
// tokens. These are the same numbers with the high-norm tokens entering the
// layer left out (as keys and as queries), beside the share they take.
#pragma once
#include <vector>

#include "vit/forward/forward.h"

namespace vit {

struct HighNormDistance {
    std::vector<int> left_out;   // the high-norm tokens entering the layer (empty: nothing changes)
    double distance_px = 0;      // mean attention distance (heads.h), those keys and queries left out
    double beyond = 0;           // mean share of a query's weight on patches > `distance` patches away
                                 // (Chebyshev), as global.h's mean_mass_beyond, those keys left out
    double high_norm_share = 0;  // mean share of a patch query's weight (all of it, CLS included) on them
};
// For one head; `distance` as mean_mass_beyond's. Needs the trace's token
// states (high_norm_entering) and weights. Throws vit::Error.
HighNormDistance distance_without_high_norm(const Trace& t, int layer, int head, int patch_px, int distance = 3);

// The ViT paper's Fig. 7 reading, "late layers look far", checked on one
// photo without the high-norm tokens: it holds when every head of the last
// quarter of the layers (rounded up) has a mean attention distance, those
// tokens left out, at least the median head's over all layers (also left
// out). The late layers that have high-norm tokens are reported too.
struct LateLayersFar {
    bool holds = false;
    int first_late = 0;                       // the first layer of the last quarter
    int nearest_layer = 0, nearest_head = 0;  // the late head that looks nearest
    double nearest_px = 0, median_px = 0;
    int first_high_norm = -1;                // the first layer high-norm tokens enter; -1 none
    double least_share = 0, most_share = 0;  // their share of the weight over those layers' heads
};
// Throws vit::Error as distance_without_high_norm does.
LateLayersFar late_layers_look_far(const Trace& t, int patch_px);

}  // namespace vit
