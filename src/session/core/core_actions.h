// What the core room is asked: the selection, the maps' style, the what-if
// temperature, the tab, classroom mode and the theme (actions, applied by
// apply_core), and what the window carries out for it (commands: opening a
// photo, the input size, experiments, the figure and sweep exports, quitting).
#pragma once
#include <string>
#include <variant>

#include "gfx/overlay_style.h"
#include "session/base/experiments.h"
#include "session/state/app_state.h"

namespace session {

namespace act {
struct SelectQuery {
    int token;
};
struct MoveQuery {
    int drow, dcol;
};  // arrow keys; from CLS, moves onto the centre patch
struct SetLayer {
    int layer;
};
struct StepLayer {
    int delta;
};
struct SetHead {
    int head;
};
struct ToggleHeadVisible {
    int head;
};
struct SetMapSource {
    MapSource source;
};
struct HoverKey {
    int token;
};  // -1: nothing hovered
struct PinKey {
    int token;
};  // pinning the pinned key again unpins; -1 unpins
struct SetStyle {
    gfx::OverlayStyle style;
};
struct SetTemperature {
    float temperature;
};
struct DismissError {};
struct ShowHelp {
    bool show;
};
struct ShowTab {
    CoreRoom::Tab tab;
};
struct SetClassroom {
    bool on;
};  // the rooms above react (dispatch/reactions.cpp)
struct SetTheme {
    CoreRoom::Theme theme;
};
struct SetMathStep {
    int step;
};  // classroom mode's one step (clamped to 1..kMathSteps)
struct RecordSweepPath {
    bool on;
};  // on: a new, empty path
}  // namespace act

namespace cmd {
struct OpenImage {
    std::string path;
};
struct OpenCompare {
    std::string path;
};  // a second photo, run with the same model
struct SetInputSize {
    int px;
};  // the model input's side (0: the model's own); the worker re-runs
struct RunExperiment {
    std::string key;
    ExperimentJob job;
};  // the window's ExperimentRunner runs it
struct CancelExperiment {};
struct RunAnalysis {
    std::string key;
    ExperimentJob job;
};  // a page's numbers, off the window's thread (not a what-if)
// The exports' `replace`: the person said yes to replacing an existing file
// (the window's question); without it an existing file is never replaced.
struct Screenshot {
    std::string path;
    bool replace = false;
};  // empty: a descriptive name in export_dir
struct ExportFigure {
    std::string path;
    bool replace = false;
};  // empty: a descriptive name in export_dir
struct ExportSweep {
    std::string path;
    bool replace = false;
};  // the GIF: along the path, or every patch; empty: a name in export_dir
struct AnswerReplace {
    bool replace;
};  // the answer to replace_question (the window redoes the export)
struct Quit {};
}  // namespace cmd

using CoreActions =
    std::variant<act::SelectQuery, act::MoveQuery, act::SetLayer, act::StepLayer, act::SetHead, act::ToggleHeadVisible,
                 act::SetMapSource, act::HoverKey, act::PinKey, act::SetStyle, act::SetTemperature, act::DismissError,
                 act::ShowHelp, act::ShowTab, act::SetClassroom, act::SetTheme, act::SetMathStep, act::RecordSweepPath>;
using CoreCommands =
    std::variant<cmd::OpenImage, cmd::OpenCompare, cmd::SetInputSize, cmd::RunExperiment, cmd::CancelExperiment,
                 cmd::RunAnalysis, cmd::Screenshot, cmd::ExportFigure, cmd::ExportSweep, cmd::AnswerReplace, cmd::Quit>;

// Changes the core room's state as the action says (values clamped to what
// the trace has). The rooms above react to some of these (session::apply).
void apply_core(AppState& s, const CoreActions& a);

}  // namespace session
