#include "vit/analysis/content_reach.h"

#include <algorithm>
#include <cstdlib>

#include "vit/analysis/token_norms.h"
#include "vit/base/error.h"

namespace vit {
namespace {

std::vector<char> kept_tokens(const Trace& t, const std::vector<int>& left_out) {
    std::vector<char> kept(t.tokens, 0);
    for (int j = t.prefix; j < t.tokens; ++j) kept[j] = 1;
    for (int j : left_out)
        if (j >= 0 && j < t.tokens) kept[j] = 0;
    return kept;
}

}  // namespace

PositionKernel position_kernel(const Trace& t, const Mat& attn, const std::vector<int>& left_out) {
    if (attn.rows() != t.tokens || attn.cols() != t.tokens) throw Error("the head's weights do not match the trace");
    const int g = t.grid, side = 2 * g - 1;
    const std::vector<char> kept = kept_tokens(t, left_out);
    std::vector<double> sum(side * side, 0.0);
    std::vector<int> count(side * side, 0);
    for (int q = t.prefix; q < t.tokens; ++q) {
        if (!kept[q]) continue;
        double total = 0;
        for (int j = t.prefix; j < t.tokens; ++j)
            if (kept[j]) total += attn(q, j);
        if (total <= 0) continue;
        for (int j = t.prefix; j < t.tokens; ++j) {
            if (!kept[j]) continue;
            const int at = (t.row_of(j) - t.row_of(q) + g - 1) * side + t.col_of(j) - t.col_of(q) + g - 1;
            sum[at] += attn(q, j) / total;
            ++count[at];
        }
    }
    PositionKernel k;
    k.grid = g;
    k.mean.assign(side * side, 0.0);
    for (int i = 0; i < side * side; ++i)
        if (count[i]) k.mean[i] = sum[i] / count[i];
    return k;
}

ContentReach content_reach(const Trace& t, const Mat& attn, const PositionKernel& kernel, int query,
                           const std::vector<int>& left_out) {
    if (!t.is_patch(query))
        throw Error("token " + std::to_string(query) + " is not a patch: content_reach needs a patch as the query");
    const std::vector<char> kept = kept_tokens(t, left_out);
    ContentReach out;
    std::vector<int> far;
    double weight = 0, kernel_total = 0;
    const int qr = t.row_of(query), qc = t.col_of(query);
    for (int j = t.prefix; j < t.tokens; ++j) {
        if (!kept[j]) {
            out.left_out.push_back(j);
            continue;
        }
        weight += attn(query, j);
        kernel_total += kernel.at(t.row_of(j) - qr, t.col_of(j) - qc);
        if (std::max(std::abs(t.row_of(j) - qr), std::abs(t.col_of(j) - qc)) >= kFarPatches) far.push_back(j);
    }
    const size_t count = std::min<size_t>(kReachPatches, far.size());
    // The heaviest first; equal weights keep token order, so the choice is reproducible.
    std::stable_sort(far.begin(), far.end(), [&](int a, int b) { return attn(query, a) > attn(query, b); });
    out.patches.assign(far.begin(), far.begin() + count);
    double on_them = 0, kernel_on_them = 0;
    for (int j : out.patches) {
        on_them += attn(query, j);
        kernel_on_them += kernel.at(t.row_of(j) - qr, t.col_of(j) - qc);
    }
    out.value.value = weight > 0 ? on_them / weight : 0;
    out.value.baseline = kernel_total > 0 ? kernel_on_them / kernel_total : 0;
    out.value.even = double(count) / (t.grid * t.grid);
    return out;
}

ContentReach content_reach(const Trace& t, int layer, int head, int query) {
    if (layer < 0 || layer >= static_cast<int>(t.layers.size()) || head < 0 ||
        head >= static_cast<int>(t.layers[layer].heads.size()))
        throw Error("no head " + std::to_string(head) + " in layer " + std::to_string(layer));
    const Mat& attn = t.layers[layer].heads[head].attn;
    const std::vector<int> high = high_norm_entering(t, layer);
    return content_reach(t, attn, position_kernel(t, attn, high), query, high);
}

double content_reach_margin(const ClaimValue& v) {
    const double base = std::max(v.baseline, v.even);
    return base > 0 ? v.value / base : 0;
}

}  // namespace vit
