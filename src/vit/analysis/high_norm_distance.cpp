#include "vit/analysis/high_norm_distance.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "vit/analysis/attention_rows.h"
#include "vit/analysis/token_norms.h"
#include "vit/base/error.h"

namespace vit {

HighNormDistance distance_without_high_norm(const Trace& t, int layer, int head, int patch_px, int distance) {
    const Mat& a = head_trace(t, layer, head).attn;
    if (a.rows() != t.tokens) throw Error("this trace was run without attention weights");
    HighNormDistance out;
    out.left_out = high_norm_entering(t, layer);
    std::vector<char> kept(t.tokens, 0);
    for (int j = t.prefix; j < t.tokens; ++j) kept[j] = 1;
    for (int j : out.left_out) kept[j] = 0;
    double dist_sum = 0, beyond_sum = 0, share_sum = 0;
    int dist_rows = 0, rows = 0, patch_rows = 0;
    for (int i = t.prefix; i < t.tokens; ++i) {
        double on_high = 0;
        for (int j : out.left_out) on_high += a(i, j);
        share_sum += on_high, ++patch_rows;
        if (!kept[i]) continue;
        double mass = 0, weighted = 0, beyond = 0;
        for (int j = t.prefix; j < t.tokens; ++j) {
            if (!kept[j]) continue;
            const double dr = t.row_of(j) - t.row_of(i), dc = t.col_of(j) - t.col_of(i);
            mass += a(i, j);
            weighted += a(i, j) * patch_px * std::sqrt(dr * dr + dc * dc);
            if (std::max(std::abs(dr), std::abs(dc)) > distance) beyond += a(i, j);
        }
        beyond_sum += beyond, ++rows;
        if (mass > 0) dist_sum += weighted / mass, ++dist_rows;
    }
    out.distance_px = dist_rows ? dist_sum / dist_rows : 0;
    out.beyond = rows ? beyond_sum / rows : 0;
    out.high_norm_share = patch_rows ? share_sum / patch_rows : 0;
    return out;
}

LateLayersFar late_layers_look_far(const Trace& t, int patch_px) {
    LateLayersFar out;
    const int layers = static_cast<int>(t.layers.size());
    if (layers == 0) return out;
    out.first_late = layers - (layers + 3) / 4;
    std::vector<double> all;
    bool first = true, first_share = true;
    for (int l = 0; l < layers; ++l)
        for (int h = 0; h < static_cast<int>(t.layers[l].heads.size()); ++h) {
            const HighNormDistance d = distance_without_high_norm(t, l, h, patch_px);
            all.push_back(d.distance_px);
            if (!d.left_out.empty()) {
                if (out.first_high_norm < 0) out.first_high_norm = l;
                out.least_share = first_share ? d.high_norm_share : std::min(out.least_share, d.high_norm_share);
                out.most_share = first_share ? d.high_norm_share : std::max(out.most_share, d.high_norm_share);
                first_share = false;
            }
            if (l >= out.first_late && (first || d.distance_px < out.nearest_px)) {
                out.nearest_layer = l, out.nearest_head = h, out.nearest_px = d.distance_px;
                first = false;
            }
        }
    std::vector<double> sorted = all;
    std::sort(sorted.begin(), sorted.end());
    const size_t n = sorted.size();
    out.median_px = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    out.holds = out.nearest_px >= out.median_px;
    return out;
}

}  // namespace vit
