// "Are the weights fixed, like a kernel?": evidence a fixed kernel cannot
// produce. A convolution applies one kernel at every position of every photo:
// the weight it gives the neighbour at offset (dr, dc) is one number, whatever
// the query and whatever the photo. (Moving the photo's content is no test: a
// convolution's output moves with its input too.) So:
// - across photos: the same query position on two photos gets rows whose
//   Jensen-Shannon divergence a kernel would make 0; the head where they
//   differ most is the page's example;
// - within one photo: the weight on the neighbour at each offset, over every
//   patch query; a kernel gives one value per offset, a head a range.
#pragma once
#include <array>

#include "vit/forward/forward.h"

namespace vit {

// The (layer, head) whose rows for `query` differ most between two photos
// (largest JSD in bits; the first in layer-then-head order on ties).
// Throws vit::Error when the traces' grids or token counts differ.
struct DifferingHead {
    int layer = 0, head = 0;
    double jsd = 0;
};
DifferingHead most_different_head(const Trace& a, const Trace& b, int query);

// For one offset (dr, dc) in the 3 x 3 neighbourhood: over every patch query
// whose neighbour at that offset is on the grid, the weight a_ij on that
// neighbour: its smallest and largest value and the queries that have them.
struct OffsetWeights {
    int dr = 0, dc = 0;
    int queries = 0;  // patch queries with that neighbour on the grid
    double min = 0, max = 0;
    int min_query = -1, max_query = -1;  // token indices
    double range() const { return max - min; }
};
// The 9 offsets in reading order: (-1, -1), (-1, 0), ..., (1, 1); (0, 0) is the query itself.
std::array<OffsetWeights, 9> offset_weights(const Trace& t, int layer, int head);

// The offset whose weight varies most over the queries: a head whose largest
// range stays under kKernelLikeRange is close to one fixed kernel on this photo.
constexpr double kKernelLikeRange = 0.01;
OffsetWeights widest_offset(const std::array<OffsetWeights, 9>& offsets);

}  // namespace vit
