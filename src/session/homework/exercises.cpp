#include "session/homework/exercises.h"
#include "vit/base/charconv_compat.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
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
constexpr double kWeightTolerance = 0.001;  // "three decimals"
constexpr double kScoreTolerance = 0.01;    // "two decimals"
constexpr double kRegionRatio = 2;          // the window's predict-then-reveal calls 2 x "more than an even spread"
constexpr int kOptions = 8;

struct KindName {
    ExerciseKind kind;
    const char* name;
};
constexpr KindName kKinds[] = {{ExerciseKind::TopKey, "top_key"},
                               {ExerciseKind::Weight, "weight"},
                               {ExerciseKind::ScaledScore, "scaled_score"},
                               {ExerciseKind::PredictRegion, "predict_region"},
                               {ExerciseKind::Choice, "choice"}};

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

bool needs_key(ExerciseKind k) { return k == ExerciseKind::Weight || k == ExerciseKind::ScaledScore; }
bool needs_query(ExerciseKind k) { return k != ExerciseKind::Choice; }

// The placeholders a question may use: they name the selection, not the answer.
bool allowed_placeholder(const std::string& name, const Exercise& e, bool pinned) {
    static const std::set<std::string> naming = {
        "grid",  "patch", "input", "patches", "tokens",           "layers",  "heads",      "d_k",
        "layer", "head",  "query", "top1",    "top1_probability", "classes", "query_rank", "relevant_quarter"};
    if (naming.count(name)) return true;
    if (name == "key") return pinned;
    if (name == "score") return pinned && needs_key(e.kind);
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
    static const std::set<std::string> single = {"title",  "photo",     "other-query", "other-pin", "kind",
                                                 "answer", "tolerance", "ratio",       "panel",     "frame"};
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

}  // namespace

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
        const bool own = key == "kind" || key == "option" || key == "answer" || key == "tolerance" || key == "ratio";
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
                throw vit::Error(where + "unknown kind '" + vit::quote_for_error(value) +
                                 "' (top_key, weight, scaled_score, predict_region or choice)");
            e.kind = k->kind;
            kind_line.back() = line;
        } else if (key == "option") {
            if (value.empty()) throw vit::Error(where + "an empty option");
            if (static_cast<int>(e.options.size()) >= kOptions)
                throw vit::Error(where + "more than " + std::to_string(kOptions) + " options");
            e.options.push_back(value);
        } else if (key == "answer") {
            e.answer = static_cast<int>(positive_number(value, "answer", where));
            if (std::to_string(e.answer) != value)
                throw vit::Error(where + "answer '" + value + "' is not an option's number");
        } else if (key == "tolerance") {
            e.tolerance = positive_number(value, "tolerance", where);
        } else {
            e.ratio = positive_number(value, "ratio", where);
        }
    }
    ExerciseSet set;
    auto tour = std::make_shared<Tour>(parse_tour(forwarded, name));
    for (size_t i = 0; i < exercises.size(); ++i) {
        Exercise& e = exercises[i];
        const TourStep& step = tour->steps[i];
        const std::string where = name + ":" + std::to_string(title_line[i]) + ": exercise '" + step.title + "': ";
        if (!kind_line[i])
            throw vit::Error(where + "no kind: (top_key, weight, scaled_score, predict_region or choice)");
        const bool choice = e.kind == ExerciseKind::Choice;
        if (choice && e.options.size() < 2) throw vit::Error(where + "a choice needs two option: lines or more");
        if (choice && (e.answer < 1 || e.answer > static_cast<int>(e.options.size())))
            throw vit::Error(where + "answer: names option 1 to " + std::to_string(e.options.size()));
        if (!choice && (!e.options.empty() || e.answer))
            throw vit::Error(where + "option: and answer: belong to kind: choice (the model answers the others)");
        if (e.tolerance > 0 && !needs_key(e.kind))
            throw vit::Error(where + "tolerance: belongs to weight and scaled_score");
        if (e.ratio > 0 && e.kind != ExerciseKind::PredictRegion)
            throw vit::Error(where + "ratio: belongs to predict_region");
        if (needs_query(e.kind) && !step.query)
            throw vit::Error(where + "state: sets no query (query=ROW,COL, cls or relevant)");
        if (e.kind == ExerciseKind::PredictRegion && *step.query == "cls")
            throw vit::Error(where + "predict_region needs a patch as the query (CLS has no place on the photo)");
        const bool pinned = step.pin && *step.pin != "none";
        if (needs_key(e.kind) && !pinned) throw vit::Error(where + "state: sets no key (pin=ROW,COL, cls or top)");
        if (e.kind == ExerciseKind::Weight && e.tolerance == 0) e.tolerance = kWeightTolerance;
        if (e.kind == ExerciseKind::ScaledScore && e.tolerance == 0) e.tolerance = kScoreTolerance;
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
            a.option = e.answer;
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
        a.layer = s.sel.layer, a.head = s.sel.head, a.query = s.sel.query;
        const vit::Vec row = vit::attention_row(*t, a.layer, a.head, a.query);
        if (e.kind == ExerciseKind::TopKey) {
            Eigen::Index top = 0;
            a.value = row.maxCoeff(&top);
            a.key = static_cast<int>(top);
        } else if (needs_key(e.kind)) {
            a.key = s.sel.pinned_key;
            if (a.key < 0)
                throw vit::Error(where + "key " + *step.pin + " is not on this photo's " + std::to_string(t->grid) +
                                 " × " + std::to_string(t->grid) + " grid (or no patch is left to pin)");
            a.value =
                e.kind == ExerciseKind::Weight ? row[a.key] : vit::scaled_scores(*t, a.layer, a.head, a.query)[a.key];
        }
        out.push_back(std::move(a));
    }
    return out;
}

std::string answer_key_csv(const ExerciseSet& set, const std::vector<ExerciseAnswer>& answers) {
    std::string csv = "exercise,kind,layer,head,query,key,answer,tolerance\n";
    auto index = [](int v) { return v < 0 ? std::string() : std::to_string(v); };
    for (const ExerciseAnswer& a : answers) {
        const Exercise& e = set.exercises[static_cast<size_t>(a.exercise - 1)];
        char number[64] = "", tolerance[64] = "";
        if (a.kind == ExerciseKind::TopKey) std::snprintf(number, sizeof number, "%d", a.key);
        if (needs_key(a.kind)) {
            std::snprintf(number, sizeof number, "%.9g", a.value);
            std::snprintf(tolerance, sizeof tolerance, "%.9g", e.tolerance);
        }
        if (a.kind == ExerciseKind::PredictRegion) std::snprintf(tolerance, sizeof tolerance, "%.9g", e.ratio);
        if (a.kind == ExerciseKind::Choice) std::snprintf(number, sizeof number, "%d", a.option);
        csv += std::to_string(a.exercise) + "," + exercise_kind_name(a.kind) + "," + index(a.layer) + "," +
               index(a.head) + "," + index(a.query) + "," + (a.kind == ExerciseKind::TopKey ? "" : index(a.key)) + "," +
               number + "," + tolerance + "\n";
    }
    return csv;
}

}  // namespace session
