// What panels, keys and scripts ask of the state: every change to AppState
// goes through apply(), one case per action, visited exhaustively (an action
// without its case does not compile). What needs the window (files, the
// worker, exports) is a Command (commands.h) instead.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <variant>

#include "gfx/overlay_style.h"
#include "session/state.h"

namespace session {

namespace act {
struct SelectQuery { int token; };
struct MoveQuery { int drow, dcol; };          // arrow keys; from CLS, moves onto the centre patch
struct SetLayer { int layer; };
struct StepLayer { int delta; };
struct SetHead { int head; };
struct ToggleHeadVisible { int head; };
struct SetMapSource { MapSource source; };
struct HoverKey { int token; };                // -1: nothing hovered
struct PinKey { int token; };                  // pinning the pinned key again unpins; -1 unpins
struct SetStyle { gfx::OverlayStyle style; };
struct SetTemperature { float temperature; };
struct DismissError {};
struct ShowHelp { bool show; };
struct ShowTab { AppState::Tab tab; };
struct ShowQuestion { std::string name; };     // opens the Questions tab on that page
struct SetRelevanceClass { int index; };       // the relevance page's class (-1: the top-1)
struct SetPermutationSeed { uint32_t seed; };  // the permutation page's shuffle
struct OpenBrowser { BrowserState::Mode mode; std::string dir; };
struct ShowGetModel { bool show; };            // the File > Get a model… dialog
struct StartTour { std::shared_ptr<const Tour> tour; };  // begins at its first step
struct TourGo { int step; };                   // shows that step (clamped) and sets the state it declares
struct ExitTour {};
struct FoldTourText { bool folded; };          // the card without (or with) its sentences
struct AnswerTourOffer {};                     // the first run's offer answered (taking it also asks for cmd::OpenTour)
struct SetClassroom { bool on; };
struct SetTheme { AppState::Theme theme; };
struct SetMathStep { int step; };              // classroom mode's one step (clamped to 1..kMathSteps)
struct RecordSweepPath { bool on; };           // on: a new, empty path
struct ShowSideBySide { bool open; };          // opening starts from the selected head and the next one
struct SetSidePane { bool right; AppState::SidePane pane; };  // clamped; the second photo only when there is one
struct SetMatrixZoom { int zoom; };            // clamped to 1..kMaxMatrixZoom
struct HoverMatrixCell { int query, key; };    // -1, -1: nothing hovered
struct StartPredict {};                        // hides the map; no patch marked yet
struct ToggleMark { int token; };              // while predicting: marks a patch, or unmarks it
struct Reveal {};                              // shows the map and the marked patches' weight
struct EndPredict {};                          // back to the plain map
struct Live { LiveAction op; };                // the live exercise (live_exercise.h)
struct Lab { LabAction action; };              // the Learning lab's own state (lab_state.h)
}  // namespace act

using Action = std::variant<
    act::SelectQuery, act::MoveQuery, act::SetLayer, act::StepLayer, act::SetHead, act::ToggleHeadVisible,
    act::SetMapSource, act::HoverKey, act::PinKey, act::SetStyle, act::SetTemperature, act::DismissError,
    act::ShowHelp, act::ShowTab, act::ShowQuestion, act::SetRelevanceClass, act::SetPermutationSeed,
    act::OpenBrowser, act::ShowGetModel, act::StartTour, act::TourGo, act::ExitTour, act::FoldTourText,
    act::AnswerTourOffer, act::SetClassroom, act::SetTheme, act::SetMathStep, act::RecordSweepPath,
    act::ShowSideBySide, act::SetSidePane, act::SetMatrixZoom, act::HoverMatrixCell, act::StartPredict,
    act::ToggleMark, act::Reveal, act::EndPredict, act::Live, act::Lab>;

// Changes the state as the action says (values clamped to what the trace has).
void apply(AppState& s, const Action& a);

}  // namespace session
