#include "vit/analysis/cls.h"

#include "vit/analysis/attention_rows.h"
#include "vit/base/error.h"

namespace vit {

ClsWeights cls_weights(const Trace& t) {
    const int layers = static_cast<int>(t.layers.size()),
              heads = layers ? static_cast<int>(t.layers[0].heads.size()) : 0;
    ClsWeights w;
    w.self.resize(layers, heads);
    w.prefix.resize(layers, heads);
    for (int l = 0; l < layers; ++l)
        for (int h = 0; h < heads; ++h) {
            const Mat& a = head_trace(t, l, h).attn;
            if (a.size() == 0) throw Error("this trace was run without attention weights");
            w.self(l, h) = a(0, 0);
            w.prefix(l, h) = a.row(0).head(t.prefix).cast<double>().sum();
        }
    w.self_mean = w.self.rowwise().mean();
    w.prefix_mean = w.prefix.rowwise().mean();
    return w;
}

PrefixWeights prefix_weights(const Trace& t, const Vec& row) {
    if (row.size() != t.tokens)
        throw Error("a row of " + std::to_string(row.size()) + " weights for " + std::to_string(t.tokens) + " tokens");
    return {static_cast<double>(row[0]), row.head(t.prefix).cast<double>().sum()};
}

}  // namespace vit
