#include "vit/analysis/kernel_evidence.h"

#include <string>

#include "vit/analysis/divergence.h"
#include "vit/base/error.h"

namespace vit {

DifferingHead most_different_head(const Trace& a, const Trace& b, int query) {
    DifferingHead best;
    bool first = true;
    for (int l = 0; l < static_cast<int>(a.layers.size()); ++l)
        for (int h = 0; h < static_cast<int>(a.layers[l].heads.size()); ++h) {
            const double jsd = attention_jsd(a, b, l, h, query);
            if (first || jsd > best.jsd) best = {l, h, jsd};
            first = false;
        }
    return best;
}

std::array<OffsetWeights, 9> offset_weights(const Trace& t, int layer, int head) {
    if (layer < 0 || layer >= static_cast<int>(t.layers.size()) || head < 0 ||
        head >= static_cast<int>(t.layers[layer].heads.size()))
        throw Error("layer " + std::to_string(layer) + ", head " + std::to_string(head) + " is out of range");
    const Mat& a = t.layers[layer].heads[head].attn;
    if (a.size() == 0) throw Error("this trace was run without attention weights");
    std::array<OffsetWeights, 9> out;
    for (int k = 0; k < 9; ++k) {
        OffsetWeights& o = out[k];
        o.dr = k / 3 - 1, o.dc = k % 3 - 1;
        for (int r = 0; r < t.grid; ++r)
            for (int c = 0; c < t.grid; ++c) {
                const int nr = r + o.dr, nc = c + o.dc;
                if (nr < 0 || nc < 0 || nr >= t.grid || nc >= t.grid) continue;
                const int i = t.token_of(r, c);
                const double w = a(i, t.token_of(nr, nc));
                if (!o.queries || w < o.min) o.min = w, o.min_query = i;
                if (!o.queries || w > o.max) o.max = w, o.max_query = i;
                ++o.queries;
            }
    }
    return out;
}

OffsetWeights widest_offset(const std::array<OffsetWeights, 9>& offsets) {
    OffsetWeights best = offsets[0];
    for (const OffsetWeights& o : offsets)
        if (o.range() > best.range()) best = o;
    return best;
}

}  // namespace vit
