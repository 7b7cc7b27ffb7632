// The lesson page's own numbers for one query's row, recomputed here as
// web/lesson/lesson_math.js computes them (attentionRow, weightErrorBound,
// topKeys) from q and k rounded to 16-bit floats: so the answer key lists
// exactly the near-ties the page accepts for a top_key, with their weights.
#pragma once
#include <vector>

#include "session/homework/exercises.h"
#include "vit/forward/forward.h"

namespace session {

struct PageRow {
    std::vector<double> scaled, weight;  // per key, from the 16-bit q and k, in double
    std::vector<double> bound;           // how far each weight can be from vitscope's float32 one
    double epsilon = 0;                  // how far each scaled score can be from vitscope's
};

// One head's row as the page computes it.
PageRow page_row(const vit::Trace& t, int layer, int head, int query);

// top_key's accepted keys as the page decides them, the page's top first:
// one head: every key whose scaled score is within 2ε of the top's
// (lesson_math.js topKeys); map=mean: every key whose mean weight is within
// its bound plus the top's of the top's mean weight (meanTopKeys).
std::vector<int> page_top_keys(const vit::Trace& t, const ExerciseAnswer& a);

}  // namespace session
