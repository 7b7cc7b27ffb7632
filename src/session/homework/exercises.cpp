#include "session/homework/exercises.h"
#include "vit/base/charconv_compat.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <sstream>

#include "session/tour/tour_room.h"
#include "session/tour/tour_limits.h"
#include "session/tour/tour_query.h"
#include "session/tour/tour_text.h"
#include "vit/analysis/attention_rows.h"
#include "vit/base/error.h"
#include "vit/base/read_file.h"
#include "vit/base/untrusted_json.h"

namespace session {
namespace {

// A number typed within these of the model's passes (the lesson page computes
// from float16 q and k: weights agree to about 1e-3, scores to about 1e-2).
constexpr double kWeightTolerance = 0.001;      // "three decimals"
constexpr double kScaledScoreTolerance = 0.01;  // "two decimals"
constexpr double kScoreTolerance = 0.1;         // q·k is √dₖ times the scaled score: "one decimal"
constexpr double kRelativeTolerance = 0.01;     // exp and Z span many powers of ten: 1 %
constexpr double kRegionRatio = 2;          // the window's predict-then-reveal calls 2 x "more than an even spread"
constexpr int kOptions = 8;

struct KindName {
    ExerciseKind kind;
    const char* name;
};
constexpr KindName kKinds[] = {{ExerciseKind::TopKey, "top_key"},
                               {ExerciseKind::Weight, "weight"},
                               {ExerciseKind::Score, "score"},
                               {ExerciseKind::ScaledScore, "scaled_score"},
                               {ExerciseKind::Exp, "exp"},
                               {ExerciseKind::Z, "z"},
                               {ExerciseKind::PredictRegion, "predict_region"},
                               {ExerciseKind::Choice, "choice"}};
constexpr const char* kKindList = "top_key, weight, score, scaled_score, exp, z, predict_region or choice";

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

bool needs_query(ExerciseKind k) { return k != ExerciseKind::Choice; }
// The kinds computed from one head's q and k: the mean of the heads has none.
bool one_head_kind(ExerciseKind k) {
    return k == ExerciseKind::Score || k == ExerciseKind::ScaledScore || k == ExerciseKind::Exp || k == ExerciseKind::Z;
}

// The placeholders a question may use: they name the selection, not the answer.
bool allowed_placeholder(const std::string& name, const Exercise& e, bool pinned) {
    static const std::set<std::string> naming = {
        "grid",  "patch", "input", "patches", "tokens",           "layers",  "heads",      "d_k",
        "layer", "head",  "query", "top1",    "top1_probability", "classes", "query_rank", "relevant_quarter"};
    if (naming.count(name)) return true;
    if (name == "key") return pinned;
    if (name == "score")
        return pinned &&
               (e.kind == ExerciseKind::Weight || e.kind == ExerciseKind::ScaledScore || e.kind == ExerciseKind::Exp);
    return false;
}

// The placeholders in text, in order.
std::vector<std::string> placeholders(const std::string& text) {
    std::vector<std::string> out;
    for (size_t open = text.find('{'); open != std::string::npos; open = text.find('{', open + 1)) {
        const size_t close = text.find('}', open);
        if (close == std::string::npos) break;
        out.push_back(text.substr(open + 1, close - open - 1));
    }
    return out;
}

// The fields an exercises file sets once (in the file, or in one exercise),
// and the line that set each: a second would override the first unseen.
// text:, holds:, fails: and option: lines add up instead; a choose: or
// claim: sets the exercise's own photo and the others (own-/other- one of them).
class FieldsOnce {
public:
    // `field` set on `line`; throws naming the line that set it first.
    void set(const std::string& field, const std::string& shown, int line, const std::string& where,
             const std::string& in) {
        const auto [it, fresh] = lines_.emplace(field, line);
        if (!fresh)
            throw vit::Error(where + "a second " + shown + in + " (line " + std::to_string(it->second) +
                             " sets it already)");
    }
    void clear() { lines_.clear(); }

private:
    std::map<std::string, int> lines_;
};

// Records the single-valued fields a line sets; lines the tour parser
// refuses anyway (unknown keys, a bad state:) are left to it.
void note_fields(FieldsOnce& once, const std::string& key, const std::string& value, int line, const std::string& where,
                 const std::string& in) {
    static const std::set<std::string> single = {"title",     "photo", "other-query", "other-pin", "kind", "answer",
                                                 "tolerance", "ratio", "panel",       "frame",     "vary"};
    if (single.count(key)) return once.set(key, key + ":", line, where, in);
    if (key.rfind("region ", 0) == 0) return once.set("region " + trim(key.substr(7)), key + ":", line, where, in);
    if (key == "state") {
        std::istringstream words(value);
        for (std::string word; words >> word;)
            if (const size_t eq = word.find('='); eq != std::string::npos && eq > 0)
                once.set("state " + word.substr(0, eq), word.substr(0, eq + 1) + " (state:)", line, where, in);
        return;
    }
    for (const char* what : {"choose", "claim"}) {
        const std::string plain(what), own = "own-" + plain, other = "other-" + plain;
        if (key == plain || key == own) once.set(own, key + ": (for the file's own photo)", line, where, in);
        if (key == plain || key == other) once.set(other, key + ": (for other photos)", line, where, in);
    }
}

double positive_number(const std::string& value, const std::string& what, const std::string& where) {
    double v = 0;
    const auto [end, ec] = vit::decimal_from_chars(value.data(), value.data() + value.size(), v);
    if (ec != std::errc() || end != value.data() + value.size() || !(v > 0) || v > 1e6)
        throw vit::Error(where + what + " '" + value + "' is not a positive number");
    return v;
}

// "0.01" (absolute) or "5%" (relative, under 100 %: 100 % would accept 0).
void parse_tolerance(Exercise& e, const std::string& value, const std::string& where) {
    if (!value.empty() && value.back() == '%') {
        const std::string number = trim(value.substr(0, value.size() - 1));
        const double percent = positive_number(number, "tolerance", where);
        if (percent >= 100)
            throw vit::Error(where + "tolerance " + value + " would accept 0 (a relative tolerance is under 100%)");
        e.tolerance = percent / 100, e.relative = true;
        return;
    }
    e.tolerance = positive_number(value, "tolerance", where);
}

// "2" or "1, 3" (or "1 3"): the right options, ascending, each once.
std::vector<int> parse_answers(const std::string& value, const std::string& where) {
    std::string spaced = value;
    std::replace(spaced.begin(), spaced.end(), ',', ' ');
    std::istringstream words(spaced);
    std::set<int> out;
    for (std::string word; words >> word;) {
        int n = 0;
        const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), n);
        if (ec != std::errc() || end != word.data() + word.size() || n < 1)
            throw vit::Error(where + "answer '" + vit::quote_for_error(value) +
                             "' is not an option's number (or several: answer: 1, 3)");
        if (!out.insert(n).second) throw vit::Error(where + "answer: names option " + word + " twice");
    }
    if (out.empty()) throw vit::Error(where + "answer: names no option (answer: 2, or answer: 1, 3)");
    return {out.begin(), out.end()};
}

// A tour parser's error in an exercises file's words: its steps are exercises, its photo the file's.
std::string in_exercises_words(std::string message) {
    static const std::pair<const char*, const char*> words[] = {
        {"the tour's photo's", "the file's own photo's"},
        {"the tour's photo", "the file's own photo"},
        {"a region of this tour", "a region of this file"},
        {"no steps (a step starts with step: TITLE)", "no exercises (each starts with exercise: TITLE)"},
        {"a step needs a title: step: TITLE", "an exercise needs a title: exercise: TITLE"},
        {"before the first step:", "before the first exercise:"},
        {" steps", " exercises"},
        {"step '", "exercise '"},
    };
    for (const auto& [from, to] : words)
        for (size_t at = message.find(from); at != std::string::npos; at = message.find(from, at + std::strlen(to)))
            message.replace(at, std::strlen(from), to);
    return message;
}

}  // namespace

bool numeric_kind(ExerciseKind k) {
    return k == ExerciseKind::Weight || k == ExerciseKind::Score || k == ExerciseKind::ScaledScore ||
           k == ExerciseKind::Exp || k == ExerciseKind::Z;
}

bool pinned_key_kind(ExerciseKind k) { return numeric_kind(k) && k != ExerciseKind::Z; }

double tolerance_for(const Exercise& e, double answer) {
    return e.relative ? e.tolerance * std::abs(answer) : e.tolerance;
}

std::string tolerance_text(const Exercise& e) {
    char text[64];
    if (e.relative) std::snprintf(text, sizeof text, "%g%%", 100 * e.tolerance);
    else std::snprintf(text, sizeof text, "%g", e.tolerance);
    return text;
}

Precision precision_of(const Exercise& e) {
    // The digits a tolerance asks for: 0.001 -> 3 decimals, 0.005 -> 3, 0.1 -> 1;
    // 1% -> 3 significant figures, 5% -> 3, 0.1% -> 4.
    const int digits = std::max(0, static_cast<int>(std::ceil(-std::log10(e.tolerance) - 1e-9)));
    if (e.relative) return {true, std::max(2, digits + 1)};
    return {false, digits};
}

std::string precision_text(const Precision& p) {
    if (p.significant) return std::to_string(p.digits) + " significant figures";
    if (p.digits == 0) return "a whole number";
    return std::to_string(p.digits) + (p.digits == 1 ? " decimal" : " decimals");
}

std::string format_to_precision(double value, const Precision& p) {
    char text[64];
    if (p.significant && std::abs(value) >= std::pow(10.0, p.digits) && std::abs(value) < 1e9) {
        // 1234.5 to 3 figures as 1230, not %g's 1.23e+03: a whole number a student writes down.
        const double step = std::pow(10.0, std::floor(std::log10(std::abs(value))) + 1 - p.digits);
        std::snprintf(text, sizeof text, "%.0f", std::round(value / step) * step);
    } else if (p.significant) {
        // %#g keeps the trailing zeros the figures ask for (0.00660, not 0.0066).
        std::snprintf(text, sizeof text, "%#.*g", p.digits, value);
        std::string s = text;
        if (!s.empty() && s.back() == '.') s.pop_back();
        return s;
    } else {
        std::snprintf(text, sizeof text, "%.*f", p.digits, value);
    }
    return text;
}

vit::Vec exercise_row(const vit::Trace& t, const ExerciseAnswer& a) {
    if (!a.mean) return vit::attention_row(t, a.layer, a.head, a.query);
    std::vector<int> heads(t.layers.at(static_cast<size_t>(a.layer)).heads.size());
    for (size_t h = 0; h < heads.size(); ++h) heads[h] = static_cast<int>(h);
    return vit::mean_attention_row(t, a.layer, heads, a.query);
}

const char* exercise_kind_name(ExerciseKind kind) {
    for (const KindName& k : kKinds)
        if (k.kind == kind) return k.name;
    return "?";
}

ExerciseSet parse_exercises(const std::string& text, const std::string& name) {
    // The tour's lines go to parse_tour with `exercise:` as `step:`; the
    // exercise's own lines are read here and blanked there, so the tour
    // parser's errors keep the file's line numbers.
    std::istringstream in(tour_limits::without_bom(text));
    std::string forwarded;
    std::vector<Exercise> exercises;
    std::vector<int> kind_line;  // where each exercise's kind: is (0: none yet)
    std::vector<int> title_line;
    FieldsOnce once;
    std::string in_exercise;  // " in exercise 'TITLE'" once the first has begun
    int line = 0;
    for (std::string raw; std::getline(in, raw);) {
        ++line;
        const std::string where = name + ":" + std::to_string(line) + ": ";
        // Every line, the exercise's own (option:) as the tour's: the tour parser sees ours blanked.
        if (raw.size() > tour_limits::kLineBytes)
            throw vit::Error(where + "the line is " + std::to_string(raw.size()) + " bytes, over the " +
                             std::to_string(tour_limits::kLineBytes) + "-byte limit");
        const std::string trimmed = trim(raw);
        const size_t colon = trimmed.find(':');
        const std::string key = colon == std::string::npos || trimmed[0] == '#' ? "" : trim(trimmed.substr(0, colon));
        const std::string value = key.empty() ? "" : trim(trimmed.substr(colon + 1));
        if (key == "step")
            throw vit::Error(where + "an exercises file starts each question with exercise: TITLE, not step:");
        // A tour's step may open a saved lesson; an exercise is set on the photo it is given (every
        // command and the window alike), so the line would be honoured in one place and not another.
        if (key == "lesson")
            throw vit::Error(where + "an exercises file takes no lesson: (each exercise is set on the photo it is " +
                             "given, by its state: and choose: lines)");
        if (key == "exercise") {
            exercises.emplace_back();
            kind_line.push_back(0);
            title_line.push_back(line);
            forwarded += "step: " + value + "\n";
            once.clear();
            in_exercise = " in exercise '" + vit::quote_for_error(value) + "'";
            continue;
        }
        if (!key.empty()) note_fields(once, key, value, line, where, in_exercise);
        const bool own = key == "kind" || key == "option" || key == "answer" || key == "tolerance" || key == "ratio" ||
                         key == "vary";
        if (!own) {
            forwarded += raw + "\n";
            continue;
        }
        forwarded += "\n";
        if (exercises.empty()) throw vit::Error(where + key + ": before the first exercise:");
        Exercise& e = exercises.back();
        if (key == "kind") {
            const KindName* k =
                std::find_if(std::begin(kKinds), std::end(kKinds), [&](const KindName& n) { return value == n.name; });
            if (k == std::end(kKinds))
                throw vit::Error(where + "unknown kind '" + vit::quote_for_error(value) + "' (" + kKindList + ")");
            e.kind = k->kind;
            kind_line.back() = line;
        } else if (key == "option") {
            if (value.empty()) throw vit::Error(where + "an empty option");
            if (static_cast<int>(e.options.size()) >= kOptions)
                throw vit::Error(where + "more than " + std::to_string(kOptions) + " options");
            e.options.push_back(value);
        } else if (key == "answer") {
            e.answers = parse_answers(value, where);
        } else if (key == "tolerance") {
            parse_tolerance(e, value, where);
        } else if (key == "vary") {
            std::istringstream words(value);
            for (std::string w; words >> w;) {
                bool& flag = w == "layer" ? e.vary_layer : w == "head" ? e.vary_head : e.vary_query;
                if (w != "layer" && w != "head" && w != "query")
                    throw vit::Error(where + "vary: '" + vit::quote_for_error(w) + "' is not layer, head or query");
                flag = true;
            }
            if (!e.vary_layer && !e.vary_head && !e.vary_query)
                throw vit::Error(where + "vary: names nothing (layer, head or query)");
        } else {
            e.ratio = positive_number(value, "ratio", where);
        }
    }
    ExerciseSet set;
    std::shared_ptr<Tour> tour;
    try {
        tour = std::make_shared<Tour>(parse_tour(forwarded, name));
        tour->replays_steps = false;  // each exercise over what is on show, as a student left it
    } catch (const vit::Error& e) {
        throw vit::Error(in_exercises_words(e.what()));
    }
    for (size_t i = 0; i < exercises.size(); ++i) {
        Exercise& e = exercises[i];
        const TourStep& step = tour->steps[i];
        const std::string where = name + ":" + std::to_string(title_line[i]) + ": exercise '" + step.title + "': ";
        if (!kind_line[i]) throw vit::Error(where + "no kind: (" + kKindList + ")");
        const bool choice = e.kind == ExerciseKind::Choice;
        const std::string range = "1 to " + std::to_string(e.options.size());
        if (choice && e.options.size() < 2) throw vit::Error(where + "a choice needs two option: lines or more");
        if (choice && e.answers.empty())
            throw vit::Error(where + "no answer: (the right option's number, " + range + "; several: answer: 1, 3)");
        if (choice && e.answers.back() > static_cast<int>(e.options.size()))
            throw vit::Error(where + "answer: names option " + std::to_string(e.answers.back()) +
                             ", but the options are " + range);
        if (!choice && (!e.options.empty() || !e.answers.empty()))
            throw vit::Error(where + "option: and answer: belong to kind: choice (the model answers the others)");
        if (e.tolerance > 0 && !numeric_kind(e.kind))
            throw vit::Error(where + "tolerance: belongs to weight, score, scaled_score, exp and z");
        if (e.ratio > 0 && e.kind != ExerciseKind::PredictRegion)
            throw vit::Error(where + "ratio: belongs to predict_region");
        if (choice && (e.vary_layer || e.vary_head || e.vary_query))
            throw vit::Error(where +
                             "vary: belongs to the kinds the model answers (a choice has no layer, head or query)");
        if (needs_query(e.kind) && !step.query)
            throw vit::Error(where + "state: sets no query (query=ROW,COL, cls or relevant)");
        if (e.kind == ExerciseKind::PredictRegion && *step.query == "cls")
            throw vit::Error(where + "predict_region needs a patch as the query (CLS has no place on the photo)");
        const bool pinned = step.pin && *step.pin != "none";
        if (pinned_key_kind(e.kind) && !pinned)
            throw vit::Error(where + "state: sets no key (pin=ROW,COL, cls or top)");
        if (step.map && *step.map == "mean" && one_head_kind(e.kind))
            throw vit::Error(where + "map=mean has no q·k of its own: " + exercise_kind_name(e.kind) +
                             " needs one head (map=head, head=H)");
        if (step.map && *step.map == "mean" && e.kind == ExerciseKind::Choice)
            throw vit::Error(where + "map=mean sets nothing a choice asks about");
        if (e.tolerance == 0) {
            if (e.kind == ExerciseKind::Weight) e.tolerance = kWeightTolerance;
            if (e.kind == ExerciseKind::ScaledScore) e.tolerance = kScaledScoreTolerance;
            if (e.kind == ExerciseKind::Score) e.tolerance = kScoreTolerance;
            if (e.kind == ExerciseKind::Exp || e.kind == ExerciseKind::Z)
                e.tolerance = kRelativeTolerance, e.relative = true;
        }
        if (e.kind == ExerciseKind::PredictRegion && e.ratio == 0) e.ratio = kRegionRatio;
        for (const TourParagraph& p : step.text)
            for (const std::string& ph : placeholders(p.text))
                if (!allowed_placeholder(ph, e, pinned))
                    throw vit::Error(where + "{" + vit::quote_for_error(ph) +
                                     "} would give the answer away (or is not " + "a number a question may show)");
        // Options are shown as written: a placeholder there would reach the class unfilled.
        for (size_t o = 0; o < e.options.size(); ++o)
            for (const std::string& ph : placeholders(e.options[o]))
                if (unknown_placeholder("{" + ph + "}", *tour).empty())
                    throw vit::Error(where + "option " + std::to_string(o + 1) + " uses {" + ph +
                                     "}, which an option does not fill (options are shown as written)");
    }
    set.tour = std::move(tour);
    set.exercises = std::move(exercises);
    return set;
}

ExerciseSet read_exercises(const std::string& path) {
    return parse_exercises(vit::read_whole_file(path, tour_limits::kFileBytes, "an exercises file"), path);
}

std::vector<ExerciseAnswer> answer_exercises(AppState s, const ExerciseSet& set) {
    const vit::Trace* t = s.trace();
    if (!t) throw vit::Error("no photo to set the exercises on");
    make_relevant_choice_now(s, *set.tour);
    apply_tour(s, act::StartTour{set.tour});
    std::vector<ExerciseAnswer> out;
    for (size_t i = 0; i < set.exercises.size(); ++i) {
        apply_tour(s, act::TourGo{static_cast<int>(i)});
        const Exercise& e = set.exercises[i];
        const TourStep& step = set.tour->steps[i];
        const std::string where = set.tour->path + ": exercise " + std::to_string(i + 1) + " '" + step.title + "': ";
        ExerciseAnswer a;
        a.exercise = static_cast<int>(i) + 1;
        a.kind = e.kind;
        // A question missing a number would be printed, checked and shown without it.
        if (const std::string ph = unfilled_placeholder(s); !ph.empty()) {
            const std::string alone = "{" + ph + "}";
            throw vit::Error(where + "{" + vit::quote_for_error(ph) + "} has no value on this photo " +
                             (needs_relevance(alone)
                                  ? "(it reads the relevance the query was chosen by: state: query=relevant "
                                    "on a model with a classifier)"
                              : needs_answer(alone) ? "(the model has no classifier)"
                                                    : "and model"));
        }
        a.text = shown_tour_text(s);
        if (e.kind == ExerciseKind::Choice) {
            a.options = e.answers;
            out.push_back(std::move(a));
            continue;
        }
        const int layers = static_cast<int>(t->layers.size()), heads = s.heads();
        if (step.layer && *step.layer >= layers)
            throw vit::Error(where + "layer " + std::to_string(*step.layer) + " is not in this model (0 to " +
                             std::to_string(layers - 1) + ")");
        if (step.head && *step.head >= heads)
            throw vit::Error(where + "head " + std::to_string(*step.head) + " is not in this model (0 to " +
                             std::to_string(heads - 1) + ")");
        const int query = tour_query_token(s, *step.query);
        if (query < 0)
            throw vit::Error(where + "query " + *step.query + " is not on this photo's " + std::to_string(t->grid) +
                             " × " + std::to_string(t->grid) + " grid");
        a.layer = s.sel.layer, a.query = s.sel.query;
        a.mean = step.map && *step.map == "mean";
        a.head = a.mean ? -1 : s.sel.head;
        const vit::Vec row = exercise_row(*t, a);
        if (e.kind == ExerciseKind::TopKey) {
            Eigen::Index top = 0;
            a.value = row.maxCoeff(&top);
            a.key = static_cast<int>(top);
        } else if (pinned_key_kind(e.kind)) {
            a.key = s.sel.pinned_key;
            if (a.key < 0)
                throw vit::Error(where + "key " + *step.pin + " is not on this photo's " + std::to_string(t->grid) +
                                 " × " + std::to_string(t->grid) + " grid (or no patch is left to pin)");
        }
        if (e.kind == ExerciseKind::Weight) a.value = row[a.key];
        if (e.kind == ExerciseKind::Score) a.value = vit::raw_scores(*t, a.layer, a.head, a.query)[a.key];
        if (e.kind == ExerciseKind::ScaledScore) a.value = vit::scaled_scores(*t, a.layer, a.head, a.query)[a.key];
        if (e.kind == ExerciseKind::Exp)
            a.value = std::exp(static_cast<double>(vit::scaled_scores(*t, a.layer, a.head, a.query)[a.key]));
        if (e.kind == ExerciseKind::Z)
            a.value = vit::scaled_scores(*t, a.layer, a.head, a.query).cast<double>().array().exp().sum();
        if (numeric_kind(e.kind) && !std::isfinite(a.value))
            throw vit::Error(where + "the answer, " + exercise_kind_name(e.kind) +
                             ", is beyond what a calculator holds on this photo (over 1e308)");
        // A tolerance as large as the answer marks 0 (or any small number) right.
        if (numeric_kind(e.kind) && tolerance_for(e, a.value) >= std::abs(a.value)) {
            char text[160];
            std::snprintf(text, sizeof text, "tolerance %s accepts 0: the answer on this photo is %.3g",
                          tolerance_text(e).c_str(), a.value);
            throw vit::Error(where + text + " (give a relative tolerance, tolerance: 5%, or one under the answer)");
        }
        out.push_back(std::move(a));
    }
    return out;
}

}  // namespace session
