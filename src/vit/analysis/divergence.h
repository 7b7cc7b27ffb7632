// "Content-based and dynamic": how different two attention rows are, as the
// Jensen-Shannon divergence of the two distributions.
#pragma once
#include "vit/forward/forward.h"

namespace vit {

// JSD(p, q) = (KL(p || m) + KL(q || m)) / 2 with m = (p + q) / 2, in bits
// (log base 2), so 0 for equal rows and 1 for rows with disjoint support.
// Both rows are normalised to sum 1 first; computed in double.
// Throws vit::Error on rows of different lengths, negative entries or a zero sum.
double jensen_shannon(const Vec& p, const Vec& q);

// The JSD between the rows of the same query token, layer and head in two
// traces (two photos through the same model). Throws vit::Error when the
// traces' grids or token counts differ.
double attention_jsd(const Trace& a, const Trace& b, int layer, int head, int query);

}  // namespace vit
