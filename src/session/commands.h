// What panels, keys and scripts ask of the window: opening files, running the
// worker and experiments, exports, quitting. The window carries them out, in
// one place (app/gui/window_commands.cpp); changes to the state alone are
// Actions (actions.h). A frame's requests keep their order: handle_frame
// applies the actions and hands the commands back.
#pragma once
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "session/actions.h"
#include "session/experiments.h"

namespace session {

namespace cmd {
struct OpenImage { std::string path; };
struct OpenModel { std::string dir; };
struct OpenCompare { std::string path; };      // a second photo, run with the same model
struct GetModel { std::string name; };         // download a known model (or open it when already there)
struct CancelDownload {};
struct SetInputSize { int px; };               // the model input's side (0: the model's own); the worker re-runs
struct RunExperiment { std::string key; ExperimentJob job; };  // the window's ExperimentRunner runs it
struct CancelExperiment {};
struct RunAnalysis { std::string key; ExperimentJob job; };    // a page's numbers, off the window's thread (not a what-if)
// The exports' `replace`: the person said yes to replacing an existing file
// (the window's question); without it an existing file is never replaced.
struct Screenshot { std::string path; bool replace = false; };    // empty: a descriptive name in export_dir
struct ExportFigure { std::string path; bool replace = false; };  // empty: a descriptive name in export_dir
struct ExportQuestionFigure {                  // a Questions page as a PNG figure
    std::string path;                          // empty: a descriptive name in export_dir
    std::string page;                          // empty: the page the state shows (question)
    bool replace = false;
};
struct AnswerReplace { bool replace; };        // the answer to replace_question (the window redoes the export)
struct OpenTour { std::string path; };         // the window reads it (empty: the tour that ships), then StartTour
struct ExportTourSlides { std::string dir; };  // the tour on show (or the one that ships) as slides; empty: a new folder in export_dir
struct ExportSweep { std::string path; bool replace = false; };  // the GIF: along the path, or every patch; empty: a name in export_dir
struct SaveLesson { std::string path; bool embed_photo = false; bool replace = false; };  // empty path: a descriptive name in export_dir
struct OpenLesson { std::string path; };       // the window reads it, then opens its model and photos and applies it
struct ExportLesson { std::string path; bool replace = false; };  // the lesson page (HTML) for the open photo; empty: a name in export_dir
struct ExportHomework { std::string dir; };    // the homework that ships for the open photo: a new folder (empty: one in export_dir)
// The live exercise: the window reads the file (empty: the sample), sets it on
// the photo, then act::Live{Start}; a bad file is one line and nothing changes.
struct OpenExercises { std::string path; };
struct Lab { LabCommand command; };            // the Learning lab's runs and training (LabController)
struct Quit {};
}  // namespace cmd

using Command = std::variant<cmd::OpenImage, cmd::OpenModel, cmd::OpenCompare, cmd::GetModel, cmd::CancelDownload,
                             cmd::SetInputSize, cmd::RunExperiment, cmd::CancelExperiment, cmd::RunAnalysis,
                             cmd::Screenshot, cmd::ExportFigure, cmd::ExportQuestionFigure, cmd::AnswerReplace,
                             cmd::OpenTour, cmd::ExportTourSlides, cmd::ExportSweep, cmd::SaveLesson, cmd::OpenLesson,
                             cmd::ExportLesson, cmd::ExportHomework, cmd::OpenExercises, cmd::Lab, cmd::Quit>;

// One thing asked for in a frame, in the order it was asked.
using Request = std::variant<Action, Command>;

// What a frame's requests came to: whether anything happened, and the
// commands for the window, in order.
struct FrameOutcome {
    bool changed = false;
    std::vector<Command> commands;
};

// Applies a frame's actions in order and returns its commands, with the
// hover rule: a key stays hovered while some panel reports it, frame after
// frame, so a report of the key already hovered is skipped and, when no
// panel reported a hover this frame, a hovered key is released (HoverKey{-1}
// last).
FrameOutcome handle_frame(AppState& s, const std::vector<Request>& requests);

}  // namespace session
