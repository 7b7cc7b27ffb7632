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
    const auto region = tour.regions.find(c->region);
    vit::ChosenHead best;
    try {
        best = vit::strongest_head(*t, s.sel.query, c->kind,
                                   region == tour.regions.end() ? vit::GridRegion{} : region->second, c->first_layer,
                                   c->last_layer);
    } catch (const vit::Error&) {
        return;  // a trace without the states or Q and K the criterion reads: the head stays
    }
    apply_core(s, act::SetLayer{best.layer});
    apply_core(s, act::SetHead{best.head});
}

}  // namespace

// Through the actions the mouse and keys emit. A query or pin off this grid
// (another input size) is skipped; query=relevant, pin=top and other photos'
// queries and pins are resolved by tour_query.h.
void show_tour_step(AppState& s, bool open_lesson) {
    const TourStep& step = s.tour.tour->steps[s.tour.step];
    if (open_lesson) s.tour.lesson_to_open = step.lesson;
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

void reapply_tour_step(AppState& s) {
    if (s.tour.tour) show_tour_step(s, false);
}

}  // namespace session
