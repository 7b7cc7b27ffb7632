// Everything the window shows is decided here: what is loaded, what is
// selected, how maps are drawn, what went wrong. Panels read an AppState and
// emit Actions; only apply() (and the window's handlers for actions with side
// effects) change it, so every change goes through one place.
#pragma once
#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "experiments.h"
#include "gfx/overlay_style.h"
#include "known_models.h"
#include "lab_state.h"  // the Learning lab (issue 38)
#include "live_exercise_state.h"
#include "model_download.h"
#include "tour.h"
#include "vit/forward/classes.h"
#include "vit/forward/forward.h"
#include "vit/image/image.h"
#include "vit/image/preprocess.h"
#include "vit/model/model.h"

namespace vit {
struct RelevantQueryChoice;
}

namespace session {

// One consistent set: a model, a photo, and the trace of that model on that
// photo. The worker builds it; the window swaps it in whole.
struct Loaded {
    std::shared_ptr<const vit::Model> model;
    std::string model_dir;
    std::shared_ptr<const vit::Image> image;
    std::string image_path;
    std::shared_ptr<const vit::Input> input;  // the model's input made from the photo (what-ifs re-run it)
    std::shared_ptr<const vit::Trace> trace;  // null until both model and photo are there
    vit::CropRect crop;                       // the model's input square on the photo
    std::vector<vit::ClassScore> top5;
    int generation = 0;                       // bumps with every swap; GPU caches key on it
    bool ready() const { return trace != nullptr; }
};

// Which map the photo view shows.
enum class MapSource { Head, MeanOfVisible };

struct Selection {
    int layer = 0;
    int head = 0;                     // the head the math panel explains
    std::vector<bool> head_visible;   // one per head of the model; the mean averages the visible ones
    MapSource source = MapSource::Head;
    int query = 0;                    // token index; 0 = CLS
    int hovered_key = -1;             // token under the mouse in any map; -1 none
    int pinned_key = -1;              // clicked key the math panel stays on; -1 none
    std::vector<int> visible_heads() const {
        std::vector<int> v;
        for (size_t h = 0; h < head_visible.size(); ++h)
            if (head_visible[h]) v.push_back(static_cast<int>(h));
        return v;
    }
};

struct WorkProgress {
    bool busy = false;
    std::string stage;       // "Running the forward pass", ...
    double seconds = 0;      // since the job started
};

// The in-app file browser (File > Open image / Open model).
struct BrowserState {
    enum class Mode { Closed, OpenImage, OpenModel, OpenCompare, OpenLesson, OpenRun /* the Learning lab's runs */,
                      OpenExercises };  // OpenCompare: File > Compare with…; OpenExercises: a live exercise's file
    Mode mode = Mode::Closed;
    std::string dir;                  // the folder listed
};

// File > Get a model…: the known models, where downloads go, the download running.
struct GetModelState {
    bool open = false;                 // the dialog
    std::vector<KnownModel> known;     // assets/models.json
    std::string list_error;            // why the list could not be read
    std::string dir;                   // where models go: vit::user_models_dir()
    std::string mirror;                // $VITSCOPE_MODEL_MIRROR: used instead of the hub when set
    DownloadView download;
};

// A named point on a Questions page that does something when clicked
// ("L3 H1": the dot of layer 3, head 1).
struct PageTarget {
    std::string name;
    float x = 0, y = 0;
    bool operator==(const PageTarget& o) const { return name == o.name && x == o.x && y == o.y; }
};

// The step-by-step tab's steps: query, key, score, scale, softmax, value, output.
inline constexpr int kMathSteps = 7;
// Their names, lower case as a tour file writes them ("scale"); and the
// number (1..kMathSteps) of a name, 0 for none.
inline constexpr const char* kMathStepNames[kMathSteps] = {"query", "key", "score", "scale", "softmax", "value", "output"};
int math_step_number(const std::string& name);

// The matrix page's deepest zoom.
inline constexpr int kMaxMatrixZoom = 32;

// The range of the temperature what-if (apply clamps to it, and so do the settings).
inline constexpr float kMinTemperature = 0.01f, kMaxTemperature = 100.f;

struct AppState {
    Loaded loaded;
    // The second photo (File > Compare with…) through the same model: its
    // image, input, trace and path; generation bumps when it changes. Empty
    // until one is opened; re-run by the worker when the model changes.
    Loaded compared;
    Selection sel;
    gfx::OverlayStyle style;          // the weight maps (colormap, normalisation, opacity, filter, grid)
    float temperature = 1.f;          // the temperature what-if
    WorkProgress work;
    ExperimentsView experiments;      // the Questions pages' long what-ifs: running, finished
    std::string exporting;            // a Questions page's figure waiting for its experiments (its path); empty: none
    ExperimentsView analyses;         // the pages' own numbers too slow for one frame at large inputs (latest first)
    std::string last_error;           // shown until the next success or dismissal
    std::string status;               // last completed action ("Saved ...")
    double last_forward_seconds = 0;
    BrowserState browser;
    GetModelState get_model;
    bool show_help = false;
    // Classroom mode (View > Classroom, P, --classroom): larger type and lines
    // for a projector, the panels reduced to the photo, the heads and the math.
    bool classroom = false;
    int math_step = 1;                // the step classroom mode shows (1..kMathSteps)
    // View > Theme: dark for a screen, light for a bright room and for print
    // (remembered in the settings).
    enum class Theme { Dark, Light };
    Theme theme = Theme::Dark;
    // The texts of the last frame a reader could not read whole ("why · window
    // · text"): cut by their window, column or cell, or broken inside a word.
    // Filled by the window when it writes a state file; empty otherwise.
    std::vector<std::string> clipped_text;
    size_t longest_text = 0;          // bytes of the longest text one item drew (the same audit)
    // File > Record a sweep path: while on, every patch selected as the query
    // joins the path File > Export sweep (GIF) follows.
    struct SweepPath {
        bool recording = false;
        std::vector<int> tokens;
    } sweep_path;
    // Predict, then reveal (classroom mode): Predict hides the map while the
    // class marks the patches it expects the query to attend to; Reveal shows
    // the map and the weight on the marked patches (session/prediction.h).
    struct Prediction {
        enum class Phase { Off, Predicting, Revealed };
        Phase phase = Phase::Off;
        std::vector<int> marked;      // patch tokens, in the order marked
    } prediction;
    // Classroom mode's live exercise (File > Exercises…; live_exercise.h).
    LiveExercise live_exercise;
    // View > Side by side: two maps at full size on one colour scale, in
    // place of the panels; each pane a layer and head of the open photo or
    // of the second photo (File > Compare with…), for the selected query.
    struct SidePane {
        int layer = 0, head = 0;
        bool second_photo = false;
        bool operator==(const SidePane& o) const {
            return layer == o.layer && head == o.head && second_photo == o.second_photo;
        }
    };
    struct SideBySide {
        bool open = false;
        SidePane left, right;
    } side_by_side;
    // The Questions tab's matrix page: its zoom (1: all N x N cells; z: N / z
    // a side around the query) and the cell under the mouse (-1: none).
    int matrix_zoom = 1;
    struct MatrixHover {
        int query = -1, key = -1;
    } matrix_hover;
    bool tour_offered = true;         // false on a first run: the window offers the tour once
    // The guided tour on show (Help > Guided tour): null when none.
    struct TourView {
        std::shared_ptr<const Tour> tour;
        int step = 0;
        std::string lesson_to_open;   // the step shown starts from this lesson: the window opens it and clears this
        bool text_folded = false;     // the card shows its title, key sentence and buttons only (H), for the panels' room; classroom mode starts so
        // query=relevant's choice (tour_query.h) for the trace of this generation:
        // one backward pass per photo, made off the window's thread when a step
        // first needs it (relevant_wanted: the generation a step waits for);
        // null when it cannot be made.
        std::shared_ptr<const vit::RelevantQueryChoice> relevant;
        int relevant_generation = -1;
        int relevant_wanted = -1;
    } tour;
    enum class Tab { Math, WhatIfs, Questions };
    Tab tab = Tab::Math;              // the right-hand panel's tab
    std::string question = "scaling"; // the Questions tab's page (explain's --question name)
    int relevance_class = -1;         // the class the relevance page explains; -1: the model's top-1
    uint32_t permutation_seed = 0;    // the permutation page's shuffle (explain's --seed, whose default is 0)
    std::string export_dir = ".";     // where screenshots and figures go
    // An export's file exists: the window asks whether to replace it (this
    // path; empty: no question). The answer is act::AnswerReplace.
    std::string replace_question;
    std::string photos_dir, models_dir;  // the project's sample photos and models, for the browser
    // Where panels drew what a test may click, in window coordinates (logical
    // pixels): not the application's state, only reported in the state file.
    struct Reported {
        float image_view[4] = {0, 0, 0, 0};             // the photo (not the panel): x, y, w, h
        std::vector<std::array<float, 4>> head_thumbs;  // the heads strip's thumbnails (the mean last)
        std::vector<std::array<float, 4>> layer_grid;   // the layers x heads grid's cells: layer by layer, its heads then its mean
        std::vector<PageTarget> page_targets;           // points a page can be clicked on (the heads page's dots)
        std::vector<PageTarget> tour_offer_buttons;     // the first run's offer: its two buttons
        std::vector<PageTarget> predict_buttons;        // classroom mode's Predict / Reveal / ... buttons
        std::vector<PageTarget> replace_buttons;        // the replace question's "replace" and "keep" buttons
        std::vector<PageTarget> page_export_button;     // the Questions page's Export figure button
        std::vector<float> tour_card;                   // the tour's card: x, y, w, h; empty when none
        std::vector<float> tour_key = {};               // its key sentence's lines: x, y, w, h; empty when none
        // Every map over a photo drawn this frame: x, y, w, h, then the part
        // of it on the screen (inside its panel's clip): x, y, w, h (w, h 0: none).
        std::vector<std::array<float, 8>> maps;
        // The Questions page's first figure (plot, table, map or picture): its kind, and
        // x, y, w, h then its part inside the page's visible area (as maps); empty: none.
        std::string page_figure_kind;
        std::vector<float> page_figure = {};
    } reported;
    bool text_input = false;          // a text field has the keyboard (the file browser's path)
    float frame_ms = 0;               // smoothed frame time
    int frames = 0;                   // frames rendered so far
    LabState lab;                     // File > Learning lab… (lab_state.h)
    bool quit = false;

    const vit::Trace* trace() const { return loaded.trace.get(); }
    int layers() const { return trace() ? static_cast<int>(trace()->layers.size()) : 0; }
    int heads() const { return layers() ? static_cast<int>(trace()->layers[0].heads.size()) : 0; }
};

// What panels ask for. State-only actions are handled by apply(); the rest
// (opening files, screenshots, quitting) by the window, which owns the worker
// and the GL context.
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
struct SetImageView { float x, y, w, h; };     // where the photo view drew the photo
struct SetHeadThumbs { std::vector<std::array<float, 4>> rects; };  // where the heads strip drew its thumbnails
struct SetLayerGridCells { std::vector<std::array<float, 4>> rects; };  // where the layers x heads grid drew its cells
struct SetPageTargets { std::vector<PageTarget> targets; };  // where a page drew its clickable points
struct SetTourOfferButtons { std::vector<PageTarget> buttons; };  // where the first run's offer drew its buttons
struct SetPredictButtons { std::vector<PageTarget> buttons; };    // where the predict bar drew its buttons
struct SetReplaceButtons { std::vector<PageTarget> buttons; };    // where the replace question drew its buttons
struct SetPageExportButton { std::vector<PageTarget> button; };   // where the Questions page's Export figure is
struct SetTourCard { std::vector<float> rect; std::vector<float> key = {}; };  // where the tour's card and its key sentence are (empty: none)
struct SetShownMaps { std::vector<std::array<float, 8>> maps; };  // where this frame's maps are (Reported::maps)
struct SetPageFigure { std::string kind; std::vector<float> rect; };  // where the page's first figure is (Reported::page_figure)
struct SetInputSize { int px; };               // the model input's side (0: the model's own); the worker re-runs
struct ShowHelp { bool show; };
struct ShowTab { AppState::Tab tab; };
struct ShowQuestion { std::string name; };     // opens the Questions tab on that page
struct SetRelevanceClass { int index; };       // the relevance page's class (-1: the top-1)
struct SetPermutationSeed { uint32_t seed; };  // the permutation page's shuffle
struct RunExperiment { std::string key; ExperimentJob job; };  // the window's ExperimentRunner runs it
struct CancelExperiment {};
struct RunAnalysis { std::string key; ExperimentJob job; };    // a page's numbers, off the window's thread (not a what-if)
struct OpenBrowser { BrowserState::Mode mode; std::string dir; };
struct OpenImage { std::string path; };
struct OpenModel { std::string dir; };
struct ShowGetModel { bool show; };            // the File > Get a model… dialog
struct GetModel { std::string name; };         // download a known model (or open it when already there)
struct CancelDownload {};
struct OpenCompare { std::string path; };      // a second photo, run with the same model
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
struct StartTour { std::shared_ptr<const Tour> tour; };  // begins at its first step
struct TourGo { int step; };                   // shows that step (clamped) and sets the state it declares
struct ExitTour {};
struct FoldTourText { bool folded; };          // the card without (or with) its sentences
struct ExportTourSlides { std::string dir; };  // the tour on show (or the one that ships) as slides; empty: a new folder in export_dir
struct AnswerTourOffer { bool take; };
struct SetClassroom { bool on; };
struct SetTheme { AppState::Theme theme; };
struct SetMathStep { int step; };
struct RecordSweepPath { bool on; };            // on: a new, empty path
struct ExportSweep { std::string path; bool replace = false; };      // the GIF (window): along the path, or every patch; empty: a name in export_dir              // classroom mode's one step (clamped to 1..kMathSteps)         // the first run's offer: the tour (OpenTour) or not now
struct SaveLesson { std::string path; bool embed_photo = false; bool replace = false; };  // empty path: a descriptive name in export_dir
struct OpenLesson { std::string path; };       // the window reads it, then opens its model and photos and applies it
struct ShowSideBySide { bool open; };          // opening starts from the selected head and the next one
struct SetSidePane { bool right; AppState::SidePane pane; };  // clamped; the second photo only when there is one
struct SetMatrixZoom { int zoom; };            // clamped to 1..kMaxMatrixZoom
struct HoverMatrixCell { int query, key; };    // -1, -1: nothing hovered
struct StartPredict {};                        // hides the map; no patch marked yet
struct ToggleMark { int token; };              // while predicting: marks a patch, or unmarks it
struct Reveal {};                              // shows the map and the marked patches' weight
struct EndPredict {};                          // back to the plain map
struct ExportHomework { std::string dir; };  // the homework that ships for the open photo: a new folder (empty: one in export_dir)
struct ExportLesson { std::string path; bool replace = false; };   // the lesson page (HTML) for the open photo, model and size; empty: a name in export_dir
struct Quit {};
struct Lab { LabAction action; };  // the Learning lab (lab_state.h): apply_lab, else the window's LabController
// The live exercise (live_exercise.h): the window reads the file (empty: the sample), then Live{Start}.
struct OpenExercises { std::string path; };
struct Live { LiveAction op; };
}  // namespace act

using Action = std::variant<act::SelectQuery, act::MoveQuery, act::SetLayer, act::StepLayer, act::SetHead,
                            act::ToggleHeadVisible, act::SetMapSource, act::HoverKey, act::PinKey, act::SetStyle,
                            act::SetTemperature, act::DismissError, act::SetImageView, act::SetHeadThumbs, act::SetLayerGridCells, act::SetPageTargets, act::SetTourOfferButtons, act::SetInputSize, act::ShowHelp, act::ShowTab, act::ShowQuestion, act::SetRelevanceClass, act::SetPermutationSeed, act::RunExperiment, act::CancelExperiment, act::RunAnalysis, act::OpenBrowser, act::OpenImage,
                            act::OpenModel, act::OpenCompare, act::ShowGetModel, act::GetModel, act::CancelDownload,
                            act::Screenshot, act::ExportFigure, act::ExportQuestionFigure, act::OpenTour, act::StartTour,
                            act::TourGo, act::ExitTour, act::ExportTourSlides, act::AnswerTourOffer, act::SetClassroom, act::SetTheme, act::SetMathStep, act::RecordSweepPath, act::ExportSweep,
                            act::SaveLesson, act::OpenLesson, act::ShowSideBySide, act::SetSidePane, act::SetMatrixZoom, act::HoverMatrixCell, act::StartPredict, act::ToggleMark, act::SetPredictButtons, act::SetReplaceButtons, act::SetPageExportButton, act::SetTourCard, act::SetShownMaps, act::SetPageFigure, act::FoldTourText, act::Reveal, act::EndPredict, act::AnswerReplace, act::ExportLesson, act::ExportHomework, act::Lab, act::Quit,
                            act::OpenExercises, act::Live>;

// Applies a state-only action; returns false for actions the window handles.
bool apply(AppState& s, const Action& a);

// Carries out one frame's actions in order through handle (the window's, which
// applies the state-only ones), with the hover rule: a key stays hovered while
// some panel reports it, frame after frame, so a report of the key already
// hovered is skipped and, when no panel reported a hover this frame, a hovered
// key is released (HoverKey{-1} last). s is read as handle changes it.
// Returns whether any action was carried out.
bool handle_frame(const AppState& s, const std::vector<Action>& reported,
                  const std::function<void(const Action&)>& handle);

// The tour step's own state keys again, over a lesson the step opened
// (without asking for the lesson again).
void reapply_tour_step(AppState& s);

// Swaps in a new model/photo/trace, keeping the selection where it still
// makes sense (same layer, head and patch when they exist in the new trace).
void adopt(AppState& s, Loaded loaded);

// The selection as the state file reports it (JSON text, one object).
std::string state_json(const AppState& s);

// "math", "whatifs", "questions": the tab as scripts and the state file name it.
const char* tab_name(AppState::Tab tab);
// "dark" or "light" (state file, settings, the script's verb); nullopt for any other name.
const char* theme_name(AppState::Theme theme);
std::optional<AppState::Theme> theme_from_name(const std::string& name);

// "off", "predicting", "revealed": the prediction's phase as scripts and the state file name it.
const char* prediction_phase_name(AppState::Prediction::Phase phase);

// Short description of the selection for file names: "dog_L8_H1_r5c7".
std::string selection_slug(const AppState& s);

}  // namespace session
