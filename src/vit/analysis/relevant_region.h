// The tour's region on a photo nobody drew one on: the object the query sits
// on, as the model's own evidence outlines it. The patches of the top quarter
// of the class-specific relevance map (relevant_query.h's `relevant`) that are
// connected to the query through one another (sharing an edge), high-norm
// tokens left out. The hand-drawn region's claim (region_beyond_neighbourhood)
// is then checked on it: "the rest of the sorrel".
#pragma once
#include <vector>

#include "vit/analysis/neighbourhood_claims.h"
#include "vit/analysis/relevant_query.h"

namespace vit {

// Empty when the query is not a patch of that top quarter (or is left out).
GridRegion relevant_region(const Trace& t, const RelevantQuery& relevant, int query, const std::vector<int>& left_out);

}  // namespace vit
