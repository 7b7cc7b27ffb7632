#include "vit/analysis/neighbourhood_claims.h"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "vit/base/error.h"

namespace vit {

const char* claim_name(ClaimKind kind) {
    switch (kind) {
        case ClaimKind::RegionBeyondNeighbourhood: return "region_beyond_neighbourhood";
        case ClaimKind::HighNormTokens: return "high_norm_tokens";
        default: return "beyond_neighbourhood";
    }
}

bool claim_from_name(const std::string& name, ClaimKind* kind) {
    for (ClaimKind k : {ClaimKind::RegionBeyondNeighbourhood, ClaimKind::BeyondNeighbourhood, ClaimKind::HighNormTokens})
        if (name == claim_name(k)) return *kind = k, true;
    return false;
}

NeighbourhoodSplit neighbourhood_split(const Trace& t, const Vec& w, int query, const GridRegion& region) {
    if (!t.is_patch(query))
        throw Error("token " + std::to_string(query) + " is not a patch: a neighbourhood needs a patch as the query");
    if (w.size() != t.tokens)
        throw Error("weight row has " + std::to_string(w.size()) + " entries, the trace has " +
                    std::to_string(t.tokens) + " tokens");
    const int qr = t.row_of(query), qc = t.col_of(query);
    const auto near = [&](int r, int c) { return std::abs(r - qr) <= 1 && std::abs(c - qc) <= 1; };
    std::set<int> in_region;  // a patch listed twice counts once
    for (const auto& [r, c] : region)
        if (r >= 0 && c >= 0 && r < t.grid && c < t.grid && !near(r, c)) in_region.insert(t.token_of(r, c));

    double patch_weight = 0, within = 0, on_region = 0;
    int inside = 0;
    for (int j = t.prefix; j < t.tokens; ++j) {
        patch_weight += w[j];
        if (near(t.row_of(j), t.col_of(j))) within += w[j], ++inside;
        if (in_region.count(j)) on_region += w[j];
    }
    const int patches = t.grid * t.grid, outside = patches - inside;
    NeighbourhoodSplit s;
    if (patch_weight > 0) {
        s.within = within / patch_weight;
        s.beyond = 1 - s.within;
        s.region_beyond = on_region / patch_weight;
    }
    s.beyond_baseline = double(outside) / patches;
    s.region_baseline = outside > 0 ? double(in_region.size()) / outside : 0;
    return s;
}

ClaimValue claim_value(const NeighbourhoodSplit& s, ClaimKind kind) {
    if (kind == ClaimKind::RegionBeyondNeighbourhood) return {s.region_beyond, s.region_baseline};
    return {s.beyond, s.beyond_baseline};
}

bool claim_holds(const ClaimValue& v, double ratio) { return v.baseline > 0 && v.value >= ratio * v.baseline; }

ChosenHead strongest_head(const Trace& t, int query, ClaimKind kind, const GridRegion& region, int first, int last) {
    if (kind == ClaimKind::HighNormTokens) throw Error("high_norm_tokens is a claim about a layer: no head to choose");
    const int layers = static_cast<int>(t.layers.size());
    if (layers == 0 || t.layers[0].heads.empty() || t.layers[0].heads[0].attn.size() == 0)
        throw Error("the trace holds no attention weights to choose a head from");
    if (first < 0) first = 0, last = layers - 1;
    if (last < 0) last = first;
    if (last >= layers || last < first)
        throw Error("layers " + std::to_string(first) + " to " + std::to_string(last) + " are not among the model's " +
                    std::to_string(layers));
    ChosenHead best;
    bool none_yet = true;
    for (int l = first; l <= last; ++l)
        for (int h = 0; h < static_cast<int>(t.layers[l].heads.size()); ++h) {
            const Vec row = t.layers[l].heads[h].attn.row(query).transpose();
            const ClaimValue v = claim_value(neighbourhood_split(t, row, query, region), kind);
            if (none_yet || v.value > best.value.value) best = {l, h, v};
            none_yet = false;
        }
    return best;
}

}  // namespace vit
