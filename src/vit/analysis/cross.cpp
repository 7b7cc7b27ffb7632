#include "vit/analysis/cross.h"

#include <cmath>
#include <string>

#include "vit/analysis/attention_rows.h"
#include "vit/analysis/whatif.h"
#include "vit/base/error.h"

namespace vit {

CrossAttentionRow cross_attention_row(const Trace& a, const Trace& b, int layer, int head, int query) {
    raw_scores(a, layer, head, query);  // range checks on A's side
    raw_scores(b, layer, head, 0);      // and on B's
    if (a.head_dim != b.head_dim) throw Error("the two traces' heads differ in size");
    const HeadTrace& qa = a.layers[layer].heads[head];
    const HeadTrace& kb = b.layers[layer].heads[head];
    CrossAttentionRow r;
    // The same expressions as raw_scores / scaled_scores, with B's keys.
    r.raw = kb.k * qa.q.row(query).transpose();
    r.scaled = r.raw / std::sqrt(static_cast<float>(a.head_dim));
    r.weights = softmax(r.scaled);
    r.output = weighted_sum_of_values(b, layer, head, r.weights);
    return r;
}

}  // namespace vit
