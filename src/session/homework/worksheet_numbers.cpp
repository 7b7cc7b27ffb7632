#include "session/homework/worksheet_numbers.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>

#include "session/homework/page_rows.h"
#include "vit/analysis/attention_rows.h"
#include "vit/forward/token_name.h"

namespace session {
namespace {

constexpr int kCandidates = 6;  // the keys a top_key or z prints: the answer among others

GivenNumber given(const std::string& name, const std::string& label, double v) {
    char text[64];
    std::snprintf(text, sizeof text, "%.6g", v);
    return {name, label, std::strtod(text, nullptr), text};
}

// The keys the query weighs most (every accepted near-tie of a top_key among
// them), in token order so the order gives nothing away.
std::vector<int> candidates(const vit::Vec& row, const std::vector<int>& must) {
    std::vector<int> order(static_cast<size_t>(row.size()));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return row[x] > row[y]; });
    std::vector<int> out(must);
    for (int j : order) {
        if (static_cast<int>(out.size()) >= std::max<int>(kCandidates, static_cast<int>(must.size()))) break;
        if (std::find(out.begin(), out.end(), j) == out.end()) out.push_back(j);
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

std::vector<GivenNumber> worksheet_numbers(const vit::Trace& t, const Exercise& e, const ExerciseAnswer& a) {
    std::vector<GivenNumber> out;
    if (a.layer < 0) return out;
    const std::string q = vit::token_name(t, a.query);
    const std::string sqrt_label = "√dₖ (dₖ = " + std::to_string(t.head_dim) + ")";
    const double sqrt_dk = std::sqrt(static_cast<double>(t.head_dim));
    auto z_of = [&](int head) {
        return vit::scaled_scores(t, a.layer, head, a.query).cast<double>().array().exp().sum();
    };
    switch (e.kind) {
        case ExerciseKind::TopKey: {
            const vit::Vec row = exercise_row(t, a);
            const std::vector<int> keys = candidates(row, page_top_keys(t, a));
            if (a.mean) {
                for (int j : keys)
                    out.push_back(given("mean_weight@" + std::to_string(j),
                                        "mean weight of " + q + " on " + vit::token_name(t, j), row[j]));
                double other = 0;
                for (int j = 0; j < t.tokens; ++j)
                    if (std::find(keys.begin(), keys.end(), j) == keys.end()) other = std::max(other, double(row[j]));
                out.push_back(given("other_max", "the largest mean weight on any other key", other));
                break;
            }
            const vit::Vec scores = vit::raw_scores(t, a.layer, a.head, a.query);
            for (int j : keys)
                out.push_back(
                    given("score@" + std::to_string(j), "q·k of " + q + " with " + vit::token_name(t, j), scores[j]));
            double other = -INFINITY;
            for (int j = 0; j < t.tokens; ++j)
                if (std::find(keys.begin(), keys.end(), j) == keys.end()) other = std::max(other, double(scores[j]));
            out.push_back(given("other_max", "the largest q·k with any other key", other));
            break;
        }
        case ExerciseKind::Weight: {
            const std::string k = vit::token_name(t, a.key);
            const int heads = static_cast<int>(t.layers.at(static_cast<size_t>(a.layer)).heads.size());
            for (int h = a.mean ? 0 : a.head; h < (a.mean ? heads : a.head + 1); ++h) {
                const std::string in = a.mean ? " in head " + std::to_string(h) : "";
                const std::string at = a.mean ? "@h" + std::to_string(h) : "";
                out.push_back(given("score" + at, "q·k of " + q + " with " + k + in,
                                    vit::raw_scores(t, a.layer, h, a.query)[a.key]));
                out.push_back(given("z" + at,
                                    "Z = Σ exp(q·k ÷ √dₖ) over all " + std::to_string(t.tokens) + " keys" + in,
                                    z_of(h)));
            }
            out.push_back(given("sqrt_dk", sqrt_label, sqrt_dk));
            break;
        }
        case ExerciseKind::Score:
            out.push_back(given("scaled", "q·k ÷ √dₖ of " + q + " with " + vit::token_name(t, a.key),
                                vit::scaled_scores(t, a.layer, a.head, a.query)[a.key]));
            out.push_back(given("sqrt_dk", sqrt_label, sqrt_dk));
            break;
        case ExerciseKind::ScaledScore:
        case ExerciseKind::Exp:
            out.push_back(given("score", "q·k of " + q + " with " + vit::token_name(t, a.key),
                                vit::raw_scores(t, a.layer, a.head, a.query)[a.key]));
            out.push_back(given("sqrt_dk", sqrt_label, sqrt_dk));
            break;
        case ExerciseKind::Z: {
            const vit::Vec scaled = vit::scaled_scores(t, a.layer, a.head, a.query);
            const std::vector<int> keys = candidates(vit::attention_row(t, a.layer, a.head, a.query), {});
            double rest = 0;
            for (int j = 0; j < t.tokens; ++j)
                if (std::find(keys.begin(), keys.end(), j) == keys.end()) rest += std::exp(double(scaled[j]));
            for (int j : keys)
                out.push_back(given("scaled@" + std::to_string(j),
                                    "q·k ÷ √dₖ of " + q + " with " + vit::token_name(t, j), scaled[j]));
            out.push_back(given("rest",
                                "Σ exp(q·k ÷ √dₖ) over the other " + std::to_string(t.tokens - keys.size()) + " keys",
                                rest));
            break;
        }
        case ExerciseKind::PredictRegion:
        case ExerciseKind::Choice: break;
    }
    return out;
}

}  // namespace session
