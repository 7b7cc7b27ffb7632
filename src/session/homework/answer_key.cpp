#include "session/homework/answer_key.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "session/homework/page_rows.h"
#include "vit/analysis/attention_rows.h"
#include "vit/analysis/prediction.h"
#include "vit/forward/token_name.h"

namespace session {
namespace {

std::string fmt(const char* format, double v) {
    char text[64];
    std::snprintf(text, sizeof text, format, v);
    return text;
}

std::string index(int v) { return v < 0 ? std::string() : std::to_string(v); }

// "(7, 5)" for a patch, the token's name (CLS) otherwise: how the sheets name it.
std::string at(const vit::Trace& t, int token) {
    if (token < 0) return "";
    const std::string name = vit::token_name(t, token);
    return t.is_patch(token) ? name.substr(name.find('(')) : name;
}

std::string joined(const std::vector<int>& v, const char* between) {
    std::string out;
    for (int x : v) out.append(out.empty() ? "" : between).append(std::to_string(x));
    return out;
}

const char* kind_unit(ExerciseKind k) {
    switch (k) {
        case ExerciseKind::Weight: return "weight";
        case ExerciseKind::Score: return "score q·k";
        case ExerciseKind::ScaledScore: return "scaled score";
        case ExerciseKind::Exp: return "exp";
        case ExerciseKind::Z: return "Z";
        default: return "";
    }
}

}  // namespace

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::vector<int> model_region(const vit::Trace& t, const vit::Vec& row) {
    std::vector<int> patches(static_cast<size_t>(t.grid * t.grid));
    std::iota(patches.begin(), patches.end(), t.prefix);
    std::stable_sort(patches.begin(), patches.end(), [&](int a, int b) { return row[a] > row[b]; });
    double total = 0, held = 0;
    for (int j : patches) total += row[j];
    std::vector<int> out;
    for (int j : patches) {
        if (held >= total / 2) break;
        out.push_back(j), held += row[j];
    }
    return out;
}

std::string answer_key_csv(const vit::Trace& t, const ExerciseSet& set, const std::vector<ExerciseAnswer>& answers,
                           int variant, bool header) {
    std::string csv =
        header ? "exercise,kind,layer,head,query,query_patch,key,key_patch,answer,accepted,tolerance,as_asked,marking,"
                 "weights,variant\n"
               : "";
    for (const ExerciseAnswer& a : answers) {
        const Exercise& e = set.exercises[static_cast<size_t>(a.exercise - 1)];
        std::string answer, accepted, tolerance, as_asked, marking, weights;
        if (a.kind == ExerciseKind::TopKey) {
            const vit::Vec row = exercise_row(t, a);
            std::vector<int> keys = page_top_keys(t, a);
            // The model's own top first, then the near-ties the page's 16-bit numbers cannot order.
            keys.erase(std::remove(keys.begin(), keys.end(), a.key), keys.end());
            keys.insert(keys.begin(), a.key);
            answer = std::to_string(a.key);
            accepted = joined(keys, " ");
            as_asked = vit::token_name(t, a.key);
            marking = vit::token_name(t, a.key) + ", weight " + fmt("%.4f", row[a.key]);
            for (size_t i = 1; i < keys.size(); ++i)
                marking.append(i == 1 ? "; also right (a near-tie the page cannot order): " : "; ")
                    .append(vit::token_name(t, keys[i]) + ", weight " + fmt("%.4f", row[keys[i]]));
        } else if (numeric_kind(a.kind)) {
            const double tol = tolerance_for(e, a.value);
            const Precision p = precision_of(e);
            answer = fmt("%.9g", a.value);
            accepted = fmt("%.9g", a.value - tol) + " " + fmt("%.9g", a.value + tol);
            tolerance = tolerance_text(e);
            as_asked = format_to_precision(a.value, p) + " (" + precision_text(p);
            if (a.kind == ExerciseKind::Weight) as_asked += "; " + fmt("%.3g", 100 * a.value) + "%";
            as_asked += ")";
            marking = std::string("the ") + kind_unit(a.kind) + " " + fmt("%.6g", a.value) + ": right from " +
                      fmt("%.6g", a.value - tol) + " to " + fmt("%.6g", a.value + tol) + " (± " + tolerance + ")";
        } else if (a.kind == ExerciseKind::PredictRegion) {
            const vit::Vec row = exercise_row(t, a);
            const std::vector<int> region = model_region(t, row);
            const vit::PredictionScore s = vit::score_prediction(t, row, region);
            tolerance = fmt("%g", e.ratio);
            std::string cells;
            for (int j : region) cells.append(cells.empty() ? "" : " ").append(at(t, j));
            marking = "passes when the marked patches hold at least " + tolerance +
                      " times their share of the patches' weight (weight on the marked patches ÷ the patches' "
                      "weight, ÷ (marked ÷ " +
                      std::to_string(t.grid * t.grid) + ")); the model's region, the " + std::to_string(region.size()) +
                      " patches holding half the weight (" + fmt("%.2f", s.ratio) + " times): " + cells;
            as_asked = "a region: shaded patches";
            for (int j = t.prefix; j < t.tokens; ++j)
                weights.append(j == t.prefix ? "" : " ").append(fmt("%.6g", row[j]));
        } else if (a.kind == ExerciseKind::Choice) {
            answer = accepted = joined(a.options, " ");
            for (int o : a.options)
                as_asked.append(as_asked.empty() ? "" : "; ")
                    .append(std::to_string(o) + ". " + e.options[static_cast<size_t>(o - 1)]);
            marking = a.options.size() == 1
                          ? "option " + answer
                          : std::string("options ").append(joined(a.options, " and ")) + ", exactly those ticked";
        }
        const std::string fields[] = {std::to_string(a.exercise),
                                      exercise_kind_name(a.kind),
                                      index(a.layer),
                                      a.mean ? std::string("mean") : index(a.head),
                                      index(a.query),
                                      at(t, a.query),
                                      index(a.key),
                                      at(t, a.key),
                                      answer,
                                      accepted,
                                      tolerance,
                                      as_asked,
                                      marking,
                                      weights,
                                      std::to_string(variant)};
        std::string line;
        for (const std::string& f : fields) line.append(line.empty() ? "" : ",").append(csv_field(f));
        csv += line + "\n";
    }
    return csv;
}

}  // namespace session
