#include "session/tour/tour_show.h"

#include "session/core/core_actions.h"
#include "session/core/core_names.h"
#include "session/questions/questions_room.h"
#include "session/tour/tour_query.h"
#include "session/tour/tour_text.h"
#include "vit/base/error.h"

namespace session {
namespace {

// A step's choose: picks the layer and head with the largest value of its
// criterion for the query on show (nothing to pick from for CLS, or on a
// model with fewer layers than the criterion names).
void choose_tour_head(AppState& s, const TourStep& step) {
    const vit::Trace* t = s.trace();
    const Tour& tour = *s.tour.tour;
    const std::optional<TourCriterion>& c = step.choose[own_photo(s, tour) ? 0 : 1];
    if (!c || !t || !t->is_patch(s.sel.query) || c->last_layer >= static_cast<int>(t->layers.size())) return;
    if (t->layers.empty() || t->layers[0].heads.empty() || t->layers[0].heads[0].attn.rows() != t->tokens) return;
    const std::optional<vit::GridRegion> region = tour_region(s, c->region);
    if (!region) return;  // the automatic region is not known here: the head stays
    vit::ChosenHead best;
    try {
        best = vit::strongest_head(*t, s.sel.query, c->kind, *region, c->first_layer, c->last_layer);
    } catch (const vit::Error&) {
        return;  // a trace without the states or Q and K the criterion reads: the head stays
    }
    apply_core(s, act::SetLayer{best.layer});
    apply_core(s, act::SetHead{best.head});
}

void restore_start(AppState& s, const TourStart& start) {
    const vit::Trace* t = s.trace();
    apply_core(s, act::SetLayer{start.layer});
    apply_core(s, act::SetHead{start.head});
    apply_core(s, act::SetMathStep{start.math_step});
    apply_core(s, act::SetMapSource{start.source});
    if (t && start.query >= 0 && start.query < t->tokens) apply_core(s, act::SelectQuery{start.query});
    s.sel.pinned_key = -1;
    if (t && start.pinned_key >= 0 && start.pinned_key < t->tokens) apply_core(s, act::PinKey{start.pinned_key});
    s.style.normalization = start.scale;
    s.question = start.question;
    apply_core(s, act::ShowTab{start.tab});
}

// Through the actions the mouse and keys emit. A query or pin off this grid
// (another input size) is skipped; query=relevant, pin=top and other photos'
// queries and pins are resolved by tour_query.h.
void set_step_state(AppState& s, const TourStep& step) {
    const vit::Trace* t = s.trace();
    if (step.layer) apply_core(s, act::SetLayer{*step.layer});
    if (step.head) apply_core(s, act::SetHead{*step.head});
    if (step.math_step) apply_core(s, act::SetMathStep{*step.math_step});
    if (step.map) apply_core(s, act::SetMapSource{*step.map == "mean" ? MapSource::MeanOfVisible : MapSource::Head});
    if (step.query && t)
        if (const int q = tour_query_token(s, *step.query); q >= 0) apply_core(s, act::SelectQuery{q});
    if (step.scale)
        s.style.normalization = *step.scale == "log"        ? gfx::Normalization::Log
                                : *step.scale == "absolute" ? gfx::Normalization::Absolute
                                                            : gfx::Normalization::RowMax;
    choose_tour_head(s, step);
    if (step.pin) {  // after the head: pin=top is the key the row on show weighs most
        s.sel.pinned_key = -1;
        if (*step.pin != "none" && t)
            if (const int k = tour_pin_token(s, *step.pin); k >= 0) apply_core(s, act::PinKey{k});
    }
    if (step.question) {
        apply_questions(s, act::ShowQuestion{*step.question});
    } else if (step.tab) {
        for (AppState::Tab tab : {AppState::Tab::Math, AppState::Tab::WhatIfs, AppState::Tab::Questions})
            if (*step.tab == tab_name(tab)) apply_core(s, act::ShowTab{tab});
    }
}

}  // namespace

TourStart tour_start_of(const AppState& s) {
    TourStart start;
    start.tab = s.tab;
    start.question = s.question;
    start.layer = s.sel.layer, start.head = s.sel.head, start.query = s.sel.query;
    start.pinned_key = s.sel.pinned_key, start.math_step = s.math_step;
    start.source = s.sel.source;
    start.scale = s.style.normalization;
    return start;
}

void show_tour_step(AppState& s, bool open_lesson) {
    const Tour& tour = *s.tour.tour;
    const int target = s.tour.step;
    if (open_lesson) s.tour.lesson_to_open = tour.steps[target].lesson;
    // A lesson sets the window anew: the replay starts at the last step that opens one.
    int from = target;
    while (tour.replays_steps && from > 0 && tour.steps[from].lesson.empty()) --from;
    if (tour.replays_steps && tour.steps[from].lesson.empty() && s.tour.start) restore_start(s, *s.tour.start);
    for (int i = from; i <= target; ++i) set_step_state(s, tour.steps[i]);
}

void reapply_tour_step(AppState& s) {
    if (s.tour.tour) show_tour_step(s, false);
}

}  // namespace session
