#include "vit/analysis/global.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "vit/analysis/attention_rows.h"
#include "vit/base/error.h"

namespace vit {
namespace {

void check_patch_query(const Trace& t, int query) {
    if (!t.is_patch(query))
        throw Error("token " + std::to_string(query) +
                    " is not a patch: distances on the grid need a patch as the query");
}

int chebyshev(const Trace& t, int a, int b) {
    return std::max(std::abs(t.row_of(a) - t.row_of(b)), std::abs(t.col_of(a) - t.col_of(b)));
}

}  // namespace

int distance_band(int distance) {
    if (distance <= 0) return 0;
    if (distance == 1) return 1;
    if (distance <= 3) return 2;
    if (distance <= 7) return 3;
    return 4;
}

const char* distance_band_name(int band) {
    static const char* names[kDistanceBands] = {"same", "1", "2-3", "4-7", "8+"};
    return band >= 0 && band < kDistanceBands ? names[band] : "?";
}

std::vector<int> farthest_quarter(const Trace& t, int query) {
    check_patch_query(t, query);
    std::vector<int> patches;
    for (int j = t.prefix; j < t.tokens; ++j) patches.push_back(j);
    auto euclid2 = [&](int j) {
        const int dr = t.row_of(j) - t.row_of(query), dc = t.col_of(j) - t.col_of(query);
        return dr * dr + dc * dc;
    };
    std::stable_sort(patches.begin(), patches.end(), [&](int a, int b) {
        const int ca = chebyshev(t, a, query), cb = chebyshev(t, b, query);
        if (ca != cb) return ca > cb;
        return euclid2(a) > euclid2(b);  // stable: equal ones stay in token order
    });
    patches.resize((patches.size() + 3) / 4);
    return patches;
}

DistanceMass distance_mass(const Trace& t, const Vec& w, int query) {
    check_patch_query(t, query);
    if (w.size() != t.tokens)
        throw Error("weight row has " + std::to_string(w.size()) + " entries, the trace has " +
                    std::to_string(t.tokens) + " tokens");
    DistanceMass m;
    for (int j = 0; j < t.prefix; ++j) m.prefix += w[j];
    for (int j = t.prefix; j < t.tokens; ++j) {
        const int d = chebyshev(t, j, query);
        m.band[distance_band(d)] += w[j];
        (d <= kConvolutionReach ? m.within_3x3 : m.beyond_3x3) += w[j];
    }
    for (int j : farthest_quarter(t, query)) m.far_quarter += w[j];
    return m;
}

DistanceMass distance_mass(const Trace& t, int layer, int head, int query) {
    return distance_mass(t, attention_row(t, layer, head, query), query);
}

NeighbourhoodShares neighbourhood_shares(const Trace& t, const Vec& weights, int query) {
    const DistanceMass m = distance_mass(t, weights, query);
    NeighbourhoodShares s;
    const double patch_weight = m.within_3x3 + m.beyond_3x3;
    if (patch_weight > 0) s.inside = m.within_3x3 / patch_weight, s.beyond = m.beyond_3x3 / patch_weight;
    int outside = 0;
    for (int j = t.prefix; j < t.tokens; ++j) outside += chebyshev(t, j, query) > kConvolutionReach;
    s.beyond_baseline = static_cast<double>(outside) / (t.tokens - t.prefix);
    return s;
}

NeighbourhoodShares neighbourhood_shares(const Trace& t, int layer, int head, int query) {
    return neighbourhood_shares(t, attention_row(t, layer, head, query), query);
}

ReachingHead farthest_reaching_head(const Trace& t, int layer, int query) {
    if (layer < 0 || layer >= static_cast<int>(t.layers.size()))
        throw Error("layer " + std::to_string(layer) + " is out of range");
    ReachingHead best;
    const int heads = static_cast<int>(t.layers[layer].heads.size());
    for (int h = 0; h < heads; ++h) {
        const NeighbourhoodShares s = neighbourhood_shares(t, layer, h, query);
        if (h == 0 || s.beyond > best.shares.beyond) best.head = h, best.shares = s;
    }
    best.holds = best.shares.beyond >= kReachesBeyondShare;
    return best;
}

std::vector<double> mean_mass_beyond(const Trace& t, int layer, int distance) {
    if (layer < 0 || layer >= static_cast<int>(t.layers.size()))
        throw Error("layer " + std::to_string(layer) + " is out of range");
    const int heads = static_cast<int>(t.layers[layer].heads.size());
    std::vector<double> mean(heads, 0.0);
    const int patches = t.tokens - t.prefix;
    if (patches <= 0) return mean;
    for (int h = 0; h < heads; ++h) {
        const Mat& a = t.layers[layer].heads[h].attn;
        if (a.rows() != t.tokens) throw Error("this trace was run without attention weights");
        double sum = 0;
        for (int i = t.prefix; i < t.tokens; ++i)
            for (int j = t.prefix; j < t.tokens; ++j)
                if (chebyshev(t, i, j) > distance) sum += a(i, j);
        mean[h] = sum / patches;
    }
    return mean;
}

}  // namespace vit
