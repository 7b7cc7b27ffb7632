// Everything the window shows is decided here: what is loaded, what is
// selected, how maps are drawn, what went wrong. Panels read an AppState and
// ask for changes (actions.h, applied by apply()) and for work (commands.h,
// carried out by the window), so every change goes through one place. Where
// things were drawn is not state: see drawn_report.h.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gfx/overlay_style.h"
#include "session/experiments.h"
#include "session/known_models.h"
#include "session/lab_state.h"
#include "session/live_exercise_state.h"
#include "session/loaded.h"
#include "session/model_download.h"
#include "session/selection.h"
#include "session/tour.h"
#include "session/work_progress.h"

namespace vit {
struct RelevantQueryChoice;
}

namespace session {

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
    // path; empty: no question). The answer is cmd::AnswerReplace.
    std::string replace_question;
    std::string photos_dir, models_dir;  // the project's sample photos and models, for the browser
    bool text_input = false;          // a text field has the keyboard (the file browser's path)
    float frame_ms = 0;               // smoothed frame time
    int frames = 0;                   // frames rendered so far
    LabState lab;                     // File > Learning lab… (lab_state.h)
    bool quit = false;

    const vit::Trace* trace() const { return loaded.trace.get(); }
    int layers() const { return trace() ? static_cast<int>(trace()->layers.size()) : 0; }
    int heads() const { return layers() ? static_cast<int>(trace()->layers[0].heads.size()) : 0; }
};


// Swaps in a new model/photo/trace, keeping the selection where it still
// makes sense (same layer, head and patch when they exist in the new trace).
void adopt(AppState& s, Loaded loaded);

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
