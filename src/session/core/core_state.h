// The core room's state: the model, photo and trace the window shows, the
// selection and how maps are drawn, the work running, what went wrong, and
// how the window is laid out (tab, classroom mode, theme). Every other room
// builds on it; AppState (session/state/app_state.h) joins them all.
#pragma once
#include <string>
#include <vector>

#include "gfx/overlay_style.h"
#include "session/base/experiments.h"
#include "session/base/loaded.h"
#include "session/base/selection.h"
#include "session/base/work_progress.h"

namespace session {

// The range of the temperature what-if (apply clamps to it, and so do the settings).
inline constexpr float kMinTemperature = 0.01f, kMaxTemperature = 100.f;

struct CoreRoom {
    Loaded loaded;
    // The second photo (File > Compare with…) through the same model: its
    // image, input, trace and path; generation bumps when it changes. Empty
    // until one is opened; re-run by the worker when the model changes.
    Loaded compared;
    Selection sel;
    gfx::OverlayStyle style;  // the weight maps (colormap, normalisation, opacity, filter, grid)
    float temperature = 1.f;  // the temperature what-if
    WorkProgress work;
    ExperimentsView experiments;  // the Questions pages' long what-ifs: running, finished
    std::string exporting;        // a Questions page's figure waiting for its experiments (its path); empty: none
    ExperimentsView analyses;     // the pages' own numbers too slow for one frame at large inputs (latest first)
    std::string last_error;       // shown until the next success or dismissal
    std::string status;           // last completed action ("Saved ...")
    double last_forward_seconds = 0;
    bool show_help = false;
    // Classroom mode (View > Classroom, P, --classroom): larger type and lines
    // for a projector, the panels reduced to the photo, the heads and the math.
    bool classroom = false;
    int math_step = 1;  // the step classroom mode shows (1..kMathSteps)
    // View > Theme: dark for a screen, light for a bright room and for print
    // (remembered in the settings).
    enum class Theme { Dark, Light };
    Theme theme = Theme::Dark;
    enum class Tab { Math, WhatIfs, Questions };
    Tab tab = Tab::Math;  // the right-hand panel's tab
    // File > Record a sweep path: while on, every patch selected as the query
    // joins the path File > Export sweep (GIF) follows.
    struct SweepPath {
        bool recording = false;
        std::vector<int> tokens;
    } sweep_path;
    std::string export_dir = ".";  // where screenshots and figures go
    // An export's file exists: the window asks whether to replace it (this
    // path; empty: no question). The answer is cmd::AnswerReplace.
    std::string replace_question;
    std::string photos_dir, models_dir;  // the project's sample photos and models, for the browser
    bool text_input = false;             // a text field has the keyboard (the file browser's path)
    float frame_ms = 0;                  // smoothed frame time
    int frames = 0;                      // frames rendered so far
    bool quit = false;

    const vit::Trace* trace() const { return loaded.trace.get(); }
    int layers() const { return trace() ? static_cast<int>(trace()->layers.size()) : 0; }
    int heads() const { return layers() ? static_cast<int>(trace()->layers[0].heads.size()) : 0; }
};

}  // namespace session
