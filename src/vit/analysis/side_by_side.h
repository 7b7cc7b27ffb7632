// Two maps side by side on one colour scale: two heads, one head in two
// layers, or one head on two photos. The scale runs from 0 to the larger of
// the two maps' largest patch weight, so equal colours mean equal weights.
#pragma once
#include "vit/forward/forward.h"

namespace vit {

// The largest patch weight of either row (each over its own trace's patch
// tokens; CLS and registers have no place on the photo); 1 when both are 0.
// Throws vit::Error when a row's length is not its trace's token count.
float shared_patch_max(const Trace& a, const Vec& row_a, const Trace& b, const Vec& row_b);

}  // namespace vit
