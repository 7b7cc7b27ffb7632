#include "vit/analysis/prediction.h"

#include <cstdio>
#include <set>

#include "vit/base/error.h"

namespace vit {

PredictionScore score_prediction(const Trace& t, const Vec& weights, const std::vector<int>& marked) {
    if (weights.size() != t.tokens)
        throw Error("a weight row of " + std::to_string(weights.size()) + " values for " + std::to_string(t.tokens) +
                    " tokens");
    std::set<int> distinct;
    for (int token : marked) {
        if (!t.is_patch(token)) throw Error("token " + std::to_string(token) + " is not a patch");
        distinct.insert(token);
    }
    PredictionScore s;
    s.marked = static_cast<int>(distinct.size());
    s.patches = t.grid * t.grid;
    s.area_share = s.patches ? static_cast<double>(s.marked) / s.patches : 0;
    for (int token : distinct) s.weight_on_marked += weights[token];
    for (int token = t.prefix; token < t.tokens; ++token) s.weight_on_patches += weights[token];
    s.even_spread = s.area_share * s.weight_on_patches;
    s.ratio = s.even_spread > 0 ? s.weight_on_marked / s.even_spread : 0;
    return s;
}

std::string prediction_sentence(const PredictionScore& s) {
    if (s.marked == 0) return {};
    // A factor of 1.5 either way before the sentence says more or less: closer
    // than that, a few patches more or fewer would change the verdict.
    constexpr double kClear = 1.5;
    const char* verdict = s.ratio >= kClear       ? "more than an even spread would put there"
                          : s.ratio <= 1 / kClear ? "less than an even spread would put there"
                                                  : "about what an even spread would put there";
    char text[320];
    std::snprintf(text, sizeof text,
                  "The marked patches (%d of %d, %.1f %% of the patches) hold %.1f %% of the weight: %.1f times an "
                  "even spread (%.1f %%), %s.",
                  s.marked, s.patches, 100 * s.area_share, 100 * s.weight_on_marked, s.ratio, 100 * s.even_spread,
                  verdict);
    return text;
}

}  // namespace vit
