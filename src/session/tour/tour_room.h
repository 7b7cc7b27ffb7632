// The tour room's actions (apply_tour), commands (opening a tour file and
// exporting slides, carried out by the window), state-file part and script verbs:
//   tour FILE | default       start a guided tour (default: the one that ships), then 2 frames
//   tour next | back | exit | fold | unfold   as the tour card's buttons (fold: Hide text)
//   export-tour [DIR]         the tour on show (or the one that ships) as slides
#pragma once
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>
#include <variant>

#include "session/base/drawn_report.h"
#include "session/base/script_verb.h"
#include "session/base/variant_tools.h"
#include "session/state/app_state.h"

namespace session {

namespace act {
struct StartTour {
    std::shared_ptr<const Tour> tour;
};  // begins at its first step
struct TourGo {
    int step;
};  // shows that step (clamped) and sets the state it declares
struct ExitTour {};
struct FoldTourText {
    bool folded;
};                          // the card without (or with) its sentences
struct AnswerTourOffer {};  // the first run's offer answered (taking it also asks for cmd::OpenTour)
}  // namespace act

namespace cmd {
struct OpenTour {
    std::string path;
};  // the window reads it (empty: the tour that ships), then StartTour
struct ExportTourSlides {
    std::string dir;
};  // the tour on show (or the one that ships) as slides; empty: a new folder in export_dir
}  // namespace cmd

using TourActions = std::variant<act::StartTour, act::TourGo, act::ExitTour, act::FoldTourText, act::AnswerTourOffer>;
using TourCommands = std::variant<cmd::OpenTour, cmd::ExportTourSlides>;
using TourRequest = joined_variant_t<TourActions, TourCommands>;

void apply_tour(AppState& s, const TourActions& a);
// Classroom mode turned on or off (core's SetClassroom): the card shows its key sentence alone on the projector.
void fold_tour_for_classroom(AppState& s, bool on);
void tour_json(const AppState& s, const DrawnReport& drawn, nlohmann::json& j);
std::span<const Verb<TourRequest>> tour_verbs();

}  // namespace session
