#include "session/tour/tour_room.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "session/base/overloaded.h"
#include "session/core/core_json.h"
#include "session/tour/tour_query.h"
#include "session/tour/tour_show.h"
#include "session/tour/tour_text.h"
#include "vit/base/error.h"

namespace session {

namespace {

// Shows step n, or, where the steps up to it need the query the model's
// answer picks and it is not known yet, keeps the step on show and waits for it.
void go_to_step(AppState& s, int n) {
    n = std::clamp(n, 0, static_cast<int>(s.tour.tour->steps.size()) - 1);
    if (tour_waits_for_query(s, n)) {
        s.tour.pending_step = n;
        // Meanwhile the card stays on a step that does not need the query (the last before the first that does).
        s.tour.step = std::min(s.tour.step, std::max(0, first_step_needing_query(s) - 1));
        if (!tour_waits_for_query(s, s.tour.step)) show_tour_step(s);
        return;
    }
    s.tour.pending_step = -1;
    s.tour.step = n;
    show_tour_step(s);
}

}  // namespace

void apply_tour(AppState& s, const TourActions& a) {
    std::visit(Overloaded{
                   [&](const act::StartTour& x) {
                       // The photo's choice stays; classroom mode starts with the card's key sentence alone (H: the
                       // rest).
                       s.tour = {x.tour,
                                 0,
                                 "",
                                 s.classroom,
                                 s.tour.relevant,
                                 s.tour.relevant_generation,
                                 s.tour.relevant_wanted,
                                 -1,
                                 std::make_shared<const TourStart>(tour_start_of(s))};
                       if (!x.tour || x.tour->steps.empty()) return;
                       // The query the model's answer picks is asked for now, while the first steps are on show.
                       tour_waits_for_query(s, static_cast<int>(x.tour->steps.size()) - 1);
                       go_to_step(s, 0);
                   },
                   [&](const act::TourGo& x) {
                       if (s.tour.tour) go_to_step(s, x.step);
                   },
                   [&](const act::ExitTour&) { s.tour = {}; },
                   [&](const act::FoldTourText& x) { s.tour.text_folded = x.folded && s.tour.tour; },
                   [&](const act::AnswerTourOffer&) { s.tour_offered = true; },
               },
               a);
}

void fold_tour_for_classroom(AppState& s, bool on) {
    if (s.tour.tour && s.classroom != on) s.tour.text_folded = on;
}

void tour_json(const AppState& s, const DrawnReport& drawn, nlohmann::json& j) {
    j["tour_offer_buttons"] = points_by_name(drawn.tour_offer_buttons);
    j["tour_offered"] = s.tour_offered;               // false: the first run's offer is on screen
    j["tour_step"] = s.tour.tour ? s.tour.step : -1;  // -1: no tour on show
    j["tour_step_title"] = s.tour.tour ? s.tour.tour->steps[s.tour.step].title : "";
    j["tour_text"] = shown_tour_text(s);  // the card's sentences, numbers filled in
    j["tour_text_folded"] = s.tour.text_folded;
    j["tour_relevant_waiting"] = awaiting_relevant_choice(s);  // a step waits for its query (tour_query.h)
    j["tour_pending_step"] = s.tour.tour ? s.tour.pending_step : -1;  // the step Next asked for, waiting for it
    j["tour_status"] = s.tour.tour ? tour_card_text(s).status : "";   // what the card says it computes, or why
    j["tour_card"] = drawn.tour_card;
    j["tour_key_sentence"] = s.tour.tour ? tour_card_text(s).key : "";  // the sentence the card leads with
    j["tour_key_rect"] = drawn.tour_key;
}

namespace {

using TourOut = std::vector<TourRequest>;

const Verb<TourRequest> kTourVerbs[] = {
    // The step's state shows a frame later, as for tab.
    {"tour", VerbArg::Required,
     [](const ScriptCommand& c, const AppState& s, TourOut& out) {
         const bool moves = c.arg == "next" || c.arg == "back", folds = c.arg == "fold" || c.arg == "unfold";
         if ((moves || folds) && !s.tour.tour) throw vit::Error(c.where + ": tour " + c.arg + " with no tour on");
         if (moves) out.push_back(act::TourGo{s.tour.step + (c.arg == "next" ? 1 : -1)});
         else if (folds) out.push_back(act::FoldTourText{c.arg == "fold"});
         else if (c.arg == "exit") out.push_back(act::ExitTour{});
         else out.push_back(cmd::OpenTour{c.arg == "default" ? "" : c.arg});
         return VerbWait{2};
     }},
    {"export-tour", VerbArg::Folder,
     [](const ScriptCommand& c, const AppState&, TourOut& out) {
         out.push_back(cmd::ExportTourSlides{c.arg});
         return VerbWait{1};
     }},
};

}  // namespace

std::span<const Verb<TourRequest>> tour_verbs() { return kTourVerbs; }

}  // namespace session
