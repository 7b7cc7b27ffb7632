#include "vit/analysis/neighbourhood_claims.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <set>

#include "vit/analysis/attention_rows.h"
#include "vit/analysis/content_reach.h"
#include "vit/analysis/token_norms.h"
#include "vit/base/error.h"

namespace vit {

const char* claim_name(ClaimKind kind) {
    switch (kind) {
        case ClaimKind::RegionBeyondNeighbourhood: return "region_beyond_neighbourhood";
        case ClaimKind::HighNormTokens: return "high_norm_tokens";
        case ClaimKind::SelectiveReach: return "selective_reach";
        case ClaimKind::UnscaledTopWeight: return "unscaled_top_weight";
        case ClaimKind::ContentReach: return "content_reach";
        default: return "beyond_neighbourhood";
    }
}

bool claim_from_name(const std::string& name, ClaimKind* kind) {
    for (ClaimKind k : {ClaimKind::RegionBeyondNeighbourhood, ClaimKind::BeyondNeighbourhood, ClaimKind::HighNormTokens,
                        ClaimKind::SelectiveReach, ClaimKind::UnscaledTopWeight, ClaimKind::ContentReach})
        if (name == claim_name(k)) return *kind = k, true;
    return false;
}

namespace {

void check_row(const Trace& t, const Vec& w, int query) {
    if (!t.is_patch(query))
        throw Error("token " + std::to_string(query) + " is not a patch: a neighbourhood needs a patch as the query");
    if (w.size() != t.tokens)
        throw Error("weight row has " + std::to_string(w.size()) + " entries, the trace has " +
                    std::to_string(t.tokens) + " tokens");
}

// Whether patch token j lies in the 3 x 3 neighbourhood of patch token query.
bool in_neighbourhood(const Trace& t, int query, int j) {
    return std::abs(t.row_of(j) - t.row_of(query)) <= 1 && std::abs(t.col_of(j) - t.col_of(query)) <= 1;
}

}  // namespace

NeighbourhoodSplit neighbourhood_split(const Trace& t, const Vec& w, int query, const GridRegion& region) {
    check_row(t, w, query);
    std::set<int> in_region;  // a patch listed twice counts once
    for (const auto& [r, c] : region)
        if (r >= 0 && c >= 0 && r < t.grid && c < t.grid && !in_neighbourhood(t, query, t.token_of(r, c)))
            in_region.insert(t.token_of(r, c));

    double patch_weight = 0, within = 0, on_region = 0;
    int inside = 0;
    for (int j = t.prefix; j < t.tokens; ++j) {
        patch_weight += w[j];
        if (in_neighbourhood(t, query, j)) within += w[j], ++inside;
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

bool claim_holds(const ClaimValue& v, double ratio) {
    return v.baseline > 0 && v.value >= ratio * v.baseline && v.value >= ratio * v.even;
}

bool claim_holds(ClaimKind kind, const ClaimValue& v, double ratio) {
    if (kind == ClaimKind::UnscaledTopWeight) return v.value >= kSaturatedWeight;
    if (kind == ClaimKind::BeyondNeighbourhood && v.value < 0.5) return false;
    return claim_holds(v, ratio);
}

SelectiveReach selective_reach(const Trace& t, const Vec& w, int query, const std::vector<int>& left_out) {
    check_row(t, w, query);
    SelectiveReach out;
    std::vector<int> far;
    double patch_weight = 0;
    for (int j = t.prefix; j < t.tokens; ++j) {
        patch_weight += w[j];
        if (in_neighbourhood(t, query, j)) continue;
        if (std::find(left_out.begin(), left_out.end(), j) != left_out.end()) out.left_out.push_back(j);
        else far.push_back(j);
    }
    const size_t count = std::min<size_t>(kReachPatches, far.size());
    // The heaviest first; equal weights keep token order, so the choice is reproducible.
    std::stable_sort(far.begin(), far.end(), [&](int a, int b) { return w[a] > w[b]; });
    out.patches.assign(far.begin(), far.begin() + count);
    double on_them = 0;
    for (int j : out.patches) on_them += w[j];
    out.value.value = patch_weight > 0 ? on_them / patch_weight : 0;
    out.value.baseline = double(count) / (t.grid * t.grid);
    return out;
}

ClaimValue unscaled_top_weight(const Trace& t, int layer, int head, int query) {
    return {softmax(raw_scores(t, layer, head, query)).maxCoeff(), attention_row(t, layer, head, query).maxCoeff()};
}

std::string unscaled_top_weight_clause(const ClaimValue& v) {
    char text[320];
    if (claim_holds(ClaimKind::UnscaledTopWeight, v, kSaturatedWeight))
        std::snprintf(text, sizeof text,
                      "the row's largest weight would be %.3f instead of %.3f (a share of all the "
                      "row's weight, CLS included): one key would take nearly all of it",
                      v.value, v.baseline);
    else
        std::snprintf(text, sizeof text,
                      "the row's largest weight would be %.3f instead of %.3f (a share of all the "
                      "row's weight, CLS included): larger, but below %.1f, so no key would take nearly all of it here",
                      v.value, v.baseline, kSaturatedWeight);
    return text;
}

ClaimValue head_claim(const Trace& t, int layer, int head, int query, ClaimKind kind, const GridRegion& region) {
    if (kind == ClaimKind::HighNormTokens) throw Error("high_norm_tokens is a claim about a layer, not a head");
    if (kind == ClaimKind::UnscaledTopWeight) return unscaled_top_weight(t, layer, head, query);
    const Vec row = attention_row(t, layer, head, query);
    if (kind == ClaimKind::SelectiveReach) return selective_reach(t, row, query, high_norm_entering(t, layer)).value;
    if (kind == ClaimKind::ContentReach) return content_reach(t, layer, head, query).value;
    return claim_value(neighbourhood_split(t, row, query, region), kind);
}

double choice_score(ClaimKind kind, const ClaimValue& v) {
    if (kind == ClaimKind::ContentReach) return content_reach_margin(v);
    if (kind == ClaimKind::UnscaledTopWeight && claim_holds(kind, v, kSaturatedWeight)) return 1 + v.value - v.baseline;
    return v.value;
}

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
            const ClaimValue v = head_claim(t, l, h, query, kind, region);
            if (none_yet || choice_score(kind, v) > choice_score(kind, best.value)) best = {l, h, v};
            none_yet = false;
        }
    return best;
}

}  // namespace vit
