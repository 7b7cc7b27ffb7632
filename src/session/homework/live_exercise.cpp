#include "session/homework/live_exercise.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "session/core/core_actions.h"
#include "session/tour/tour_room.h"
#include "session/base/overloaded.h"
#include "session/tour/tour_query.h"
#include "vit/analysis/prediction.h"
#include "vit/analysis/step_explanation.h"
#include "vit/base/error.h"
#include "vit/forward/token_name.h"

namespace session {
namespace {

using Phase = LiveExercise::Phase;

// A typed answer longer than any number: kept whole up to here, so nothing typed is lost
// while the field stays one line.
constexpr size_t kMaxTyped = 64;

std::string live_format(const char* fmt, double v) {
    char text[64];
    std::snprintf(text, sizeof text, fmt, v);
    return text;
}

// The answers as `vitscope exercises --key` computes them: answer_exercises on
// this photo from the window's start (layer 0, head 0, CLS, nothing pinned),
// where the command line starts too, so a step that leaves part of the state
// as it was gives the key's answer here as well.
std::vector<ExerciseAnswer> key_answers(const AppState& s, const ExerciseSet& set) {
    AppState c = s;
    c.sel = Selection{};
    c.sel.head_visible.assign(static_cast<size_t>(s.heads()), true);
    c.live_exercise = {};
    return answer_exercises(std::move(c), set);
}

KeyArithmetic arithmetic_of(const vit::Trace& t, const ExerciseAnswer& a, int key) {
    const vit::StepExplanation e = vit::explain_step(t, a.layer, a.head, a.query, key);
    KeyArithmetic k;
    k.query = a.query, k.key = key, k.head_dim = e.head_dim, k.tokens = t.tokens;
    k.score = e.score, k.sqrt_dk = e.sqrt_dk, k.scaled = e.scaled_score, k.exp_scaled = e.exp_score, k.z = e.z;
    k.weight = e.model_weight;
    return k;
}

// The math panel's steps for one key, as the lesson page's homework prints them.
std::vector<ArithmeticLine> arithmetic_lines(const vit::Trace& t, const KeyArithmetic& k) {
    const std::string q = vit::token_name(t, k.query), key = vit::token_name(t, k.key);
    return {
        {"score q·k", live_format("%.4f", k.score),
         "q of " + q + " · k of " + key + ", " + std::to_string(k.head_dim) + " products summed"},
        {"÷ √dₖ", live_format("%.4f", k.scaled),
         "÷ √" + std::to_string(k.head_dim) + " = " + live_format("%.2f", k.sqrt_dk)},
        {"exp", live_format("%.6g", k.exp_scaled), "exp(" + live_format("%.4f", k.scaled) + ")"},
        {"Z", live_format("%.6g", k.z), "Σ exp of the scaled scores over all " + std::to_string(k.tokens) + " keys"},
        {"weight a", live_format("%.6f", k.weight), "exp ÷ Z"},
    };
}

std::string live_percent(double x) { return live_format("%.1f %%", 100 * x); }

// The right answer in words, beside the class's.
std::string answer_sentence(const vit::Trace& t, const Exercise& e, const ExerciseAnswer& a, const ExerciseVerdict& v) {
    switch (e.kind) {
        case ExerciseKind::Choice: {
            std::string s = a.options.size() == 1 ? "The answer: " : "The answers: ";
            for (size_t i = 0; i < a.options.size(); ++i)
                s.append(i ? "; " : "")
                    .append(std::to_string(a.options[i]) + ". " + e.options[static_cast<size_t>(a.options[i] - 1)]);
            return s + " (yours: " + v.given + ").";
        }
        case ExerciseKind::TopKey: {
            std::string s = "Query " + vit::token_name(t, a.query) + " weighs " + vit::token_name(t, a.key) +
                            " most: weight " + live_format("%.4f", a.value) + ", the largest of its " +
                            std::to_string(t.tokens) + " keys. Yours: " + v.given + ".";
            if (v.accepted.size() > 1)
                s += " A tie: " + std::to_string(v.accepted.size()) + " keys have exactly this weight; each counts.";
            return s;
        }
        case ExerciseKind::Weight:
        case ExerciseKind::Score:
        case ExerciseKind::ScaledScore:
        case ExerciseKind::Exp:
        case ExerciseKind::Z: {
            const Precision p = precision_of(e);
            const char* what = e.kind == ExerciseKind::Weight        ? "The weight: "
                               : e.kind == ExerciseKind::Score       ? "The score q·k: "
                               : e.kind == ExerciseKind::ScaledScore ? "The scaled score: "
                               : e.kind == ExerciseKind::Exp         ? "exp of the scaled score: "
                                                                     : "Z: ";
            return std::string(what) + format_to_precision(a.value, p) + " (yours " +
                   format_to_precision(v.given_value, p) + "; within ±" + tolerance_text(e) + " counts).";
        }
        case ExerciseKind::PredictRegion: {
            const vit::PredictionScore& r = *v.region;
            return "The " + std::to_string(r.marked) + " patches marked (" + live_percent(r.area_share) + " of the " +
                   std::to_string(r.patches) + ") hold " + live_percent(r.weight_on_marked) +
                   " of the weight; an even spread of the patches' " + live_percent(r.weight_on_patches) +
                   " would put " + live_percent(r.even_spread) + " there: " + live_format("%.2f", r.ratio) +
                   " times an even spread. Passing needs " + live_format("%g", e.ratio) + " times.";
        }
    }
    return "";
}

void reset_answer(LiveExercise& x) {
    x.phase = Phase::Answering;
    x.picked = -1;
    x.marked.clear();
    x.typed.clear();
    x.options.clear();
    x.note.clear();
    x.verdict.reset();
}

bool answering_kind(const AppState& s, ExerciseKind kind) {
    const Exercise* e = live_exercise_shown(s);
    return e && e->kind == kind && !live_revealed(s);
}

void reveal_live(AppState& s) {
    LiveExercise& x = s.live_exercise;
    const vit::Trace* t = s.trace();
    if (!t || live_revealed(s)) return;
    if (live_reveal_waits(s)) {
        x.note = "The exercise's query is still being chosen on this photo: Reveal in a moment.";
        return;
    }
    const Exercise& e = x.set->exercises[static_cast<size_t>(x.index)];
    auto v = std::make_shared<LiveVerdict>();
    try {
        v->answer = key_answers(s, *x.set)[static_cast<size_t>(x.index)];
        ExerciseResponse r;
        r.key = x.picked, r.marked = x.marked, r.typed = x.typed, r.options = x.options;
        v->check = check_exercise(*t, e, v->answer, r);
        if (!v->check.error.empty()) {
            x.note = v->check.error;  // nothing given, or another format: the answer stays as typed
            return;
        }
        v->sentence = answer_sentence(*t, e, v->answer, v->check);
        if (!v->answer.mean && (e.kind == ExerciseKind::TopKey || pinned_key_kind(e.kind))) {
            v->arithmetic = arithmetic_of(*t, v->answer, v->answer.key);
            v->lines = arithmetic_lines(*t, *v->arithmetic);
        }
    } catch (const vit::Error& err) {
        x.note = err.what();
        return;
    }
    v->generation = s.loaded.generation;
    // The map on show is the row the answer comes from, its key pinned.
    if (v->answer.layer >= 0) {
        apply_core(s, act::SetLayer{v->answer.layer});
        if (v->answer.head >= 0) apply_core(s, act::SetHead{v->answer.head});
        // map=mean: the mean of the heads, as the exercise asked about.
        apply_core(s, act::SetMapSource{v->answer.mean ? MapSource::MeanOfVisible : MapSource::Head});
        apply_core(s, act::SelectQuery{v->answer.query});
        s.sel.pinned_key = -1;
        if (v->answer.key >= 0) apply_core(s, act::PinKey{v->answer.key});
    }
    x.note.clear();
    x.verdict = std::move(v);
    x.phase = Phase::Revealed;
}

}  // namespace

bool live_exercise_on(const AppState& s) {
    const LiveExercise& x = s.live_exercise;
    return s.classroom && x.set && x.set->tour && s.tour.tour == x.set->tour && x.index >= 0 &&
           x.index < static_cast<int>(x.set->exercises.size());
}

const Exercise* live_exercise_shown(const AppState& s) {
    return live_exercise_on(s) ? &s.live_exercise.set->exercises[static_cast<size_t>(s.live_exercise.index)] : nullptr;
}

const LiveVerdict* live_verdict(const AppState& s) {
    const LiveExercise& x = s.live_exercise;
    if (!live_exercise_on(s) || x.phase != Phase::Revealed || !x.verdict) return nullptr;
    return x.verdict->generation == s.loaded.generation ? x.verdict.get() : nullptr;
}

bool live_revealed(const AppState& s) { return live_verdict(s) != nullptr; }

bool live_exercise_hides_maps(const AppState& s) {
    const Exercise* e = live_exercise_shown(s);
    return e && e->kind != ExerciseKind::Choice && !live_revealed(s);
}

bool live_reveal_waits(const AppState& s) { return live_exercise_on(s) && awaiting_relevant_choice(s); }

void prepare_live_exercises(AppState& s, const ExerciseSet& set) {
    if (!s.trace()) throw vit::Error("no photo to set the exercises on");
    if (set.exercises.empty()) throw vit::Error(set.tour->path + ": no exercise: in the file");
    make_relevant_choice_now(s, *set.tour);
    key_answers(s, set);  // throws the key's line for a layer, head, query or key not on this model or photo
}

void apply_live(AppState& s, const LiveAction& a) {
    LiveExercise& x = s.live_exercise;
    const vit::Trace* t = s.trace();
    // One case per action (no catch-all: an action without its case does not compile).
    std::visit(Overloaded{
                   [&](const live::Start& start) {
                       if (!start.set || start.set->exercises.empty()) return;
                       apply_core(s, act::SetClassroom{true});
                       s.prediction = {};  // one way of hiding the map at a time
                       x = {};
                       x.set = start.set;
                       x.path = start.path;
                       apply_tour(s, act::StartTour{start.set->tour});
                       reset_answer(x);
                   },
                   [&](const live::Go& go) {
                       if (!live_exercise_on(s)) return;
                       x.index = std::clamp(go.index, 0, static_cast<int>(x.set->exercises.size()) - 1);
                       reset_answer(x);
                       apply_tour(s, act::TourGo{x.index});
                   },
                   [&](const live::End&) {
                       if (x.set && s.tour.tour == x.set->tour) apply_tour(s, act::ExitTour{});
                       x = {};
                   },
                   [&](const live::Reveal&) {
                       if (live_exercise_on(s)) reveal_live(s);
                   },
                   [&](const live::Pick& pick) {
                       if (t && answering_kind(s, ExerciseKind::TopKey) && pick.token >= 0 && pick.token < t->tokens)
                           x.picked = pick.token, x.note.clear();
                   },
                   [&](const live::Mark& mark) {
                       if (!t || !answering_kind(s, ExerciseKind::PredictRegion) || !t->is_patch(mark.token)) return;
                       const auto at = std::find(x.marked.begin(), x.marked.end(), mark.token);
                       if (at == x.marked.end()) x.marked.push_back(mark.token);
                       else x.marked.erase(at);
                       x.note.clear();
                   },
                   [&](const live::Type& type) {
                       const Exercise* e = live_exercise_shown(s);
                       if (t && e && numeric_kind(e->kind) && !live_revealed(s))
                           x.typed = type.text.substr(0, kMaxTyped), x.note.clear();
                   },
                   [&](const live::Choose& choose) {
                       const Exercise* e = live_exercise_shown(s);
                       if (!t || !answering_kind(s, ExerciseKind::Choice) || choose.option < 1 ||
                           choose.option > static_cast<int>(e->options.size()))
                           return;
                       x.note.clear();
                       if (e->answers.size() == 1) {  // one right option: a click chooses it
                           x.options = {choose.option};
                           return;
                       }
                       // several: a click ticks or unticks it
                       const auto at = std::find(x.options.begin(), x.options.end(), choose.option);
                       if (at != x.options.end()) x.options.erase(at);
                       else
                           x.options.insert(std::upper_bound(x.options.begin(), x.options.end(), choose.option),
                                            choose.option);
                   },
               },
               a);
}

const char* live_phase_name(const AppState& s) {
    if (!live_exercise_on(s)) return "off";
    return live_revealed(s) ? "revealed" : "answering";
}

}  // namespace session
