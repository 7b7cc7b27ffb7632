#include "session/homework/exercise_check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <regex>

#include "vit/analysis/attention_rows.h"
#include "vit/forward/token_name.h"

namespace session {
namespace {

std::string typed_trimmed(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// At most `bytes` bytes of UTF-8 text, not cutting a character.
std::string utf8_prefix(const std::string& s, size_t bytes) {
    if (s.size() <= bytes) return s;
    size_t end = bytes;
    while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
    return s.substr(0, end);
}

// U+2212 (the minus sign a keyboard or a copied number may give) as '-'.
std::string with_ascii_minus(const std::string& s) {
    static const std::string minus = "\xE2\x88\x92";
    std::string out;
    for (size_t i = 0; i < s.size();) {
        if (s.compare(i, minus.size(), minus) == 0) out += '-', i += minus.size();
        else out += s[i++];
    }
    return out;
}

std::string number_text(double v) {
    char text[64];
    std::snprintf(text, sizeof text, "%.9g", v);
    return text;
}

}  // namespace

TypedNumber parse_answer_number(const std::string& text, bool percent) {
    // The page's rules, line by line (lesson_math.js parseAnswerNumber).
    std::string t = with_ascii_minus(typed_trimmed(text));
    if (t.empty()) return {0, "Type a number first."};
    double scale = 1;
    if (percent && t.back() == '%') {
        t = typed_trimmed(t.substr(0, t.size() - 1));
        scale = 0.01;
    }
    static const std::regex decimal_comma("^[+-]?[0-9]*,[0-9]+$");
    static const std::regex number("^[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?$");
    if (std::regex_match(t, decimal_comma)) t[t.find(',')] = '.';
    if (!std::regex_match(t, number))
        return {0, "\xE2\x80\x9C" + utf8_prefix(typed_trimmed(text), 40) +
                       "\xE2\x80\x9D is not a number: type it as digits with a decimal point, like 0.123" +
                       (percent ? " (or 12.3%)" : "") + "."};
    return {std::strtod(t.c_str(), nullptr) * scale, ""};
}

ExerciseVerdict check_exercise(const vit::Trace& t, const Exercise& e, const ExerciseAnswer& a,
                               const ExerciseResponse& r) {
    ExerciseVerdict v;
    switch (e.kind) {
        case ExerciseKind::Choice: {
            std::vector<int> chosen;
            for (int o : r.options)
                if (o >= 1 && o <= static_cast<int>(e.options.size())) chosen.push_back(o);
            std::sort(chosen.begin(), chosen.end());
            chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
            if (chosen.empty()) {
                v.error =
                    a.options.size() > 1 ? "Tick the options you choose first." : "Choose one of the options first.";
                return v;
            }
            v.given = chosen.size() == 1 ? "option " : "options ";
            for (size_t i = 0; i < chosen.size(); ++i)
                v.given.append(i ? " and " : "").append(std::to_string(chosen[i]));
            v.correct = chosen == a.options;
            return v;
        }
        case ExerciseKind::TopKey: {
            if (r.key < 0 || r.key >= t.tokens) {
                v.error = "Click a patch on the photo (or CLS) first.";
                return v;
            }
            const vit::Vec row = exercise_row(t, a);
            for (int j = 0; j < t.tokens; ++j)
                if (row[j] == row[a.key]) v.accepted.push_back(j);  // the key's, and exact ties
            v.given = vit::token_name(t, r.key);
            v.correct = std::find(v.accepted.begin(), v.accepted.end(), r.key) != v.accepted.end();
            return v;
        }
        case ExerciseKind::Weight:
        case ExerciseKind::Score:
        case ExerciseKind::ScaledScore:
        case ExerciseKind::Exp:
        case ExerciseKind::Z: {
            const TypedNumber n = parse_answer_number(r.typed, e.kind == ExerciseKind::Weight);
            if (!n.error.empty()) {
                v.error = n.error;
                return v;
            }
            v.given_value = n.value;
            v.given = number_text(n.value);
            v.correct = std::abs(n.value - a.value) <= tolerance_for(e, a.value);
            return v;
        }
        case ExerciseKind::PredictRegion: {
            if (r.marked.empty()) {
                v.error = "Mark at least one patch on the photo first.";
                return v;
            }
            v.region = vit::score_prediction(t, exercise_row(t, a), r.marked);
            v.given = std::to_string(v.region->marked) + (v.region->marked == 1 ? " patch" : " patches");
            v.correct = v.region->ratio >= e.ratio;
            return v;
        }
    }
    return v;
}

}  // namespace session
