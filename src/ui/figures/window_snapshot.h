// The whole window drawn offscreen, as it looks for a state (its tab, page,
// selection and tour step; no mouse): the guided tour's slides.
#pragma once
#include <vector>

#include "gfx/rgba_image.h"
#include "session/dispatch/requests.h"
#include "session/state/app_state.h"

namespace ui {

struct WindowSnapshot {
    gfx::RgbaImage image;
    // What the panels asked to run and did not find in the state: the
    // experiments (RunExperiment) and the pages' slow numbers (RunAnalysis).
    // Run them, put their results in s.experiments / s.analyses and draw again.
    std::vector<session::Command> asked;
};

// Needs a current OpenGL 3.3 context; leaves its GL state and ImGui's current
// context as they were. Drawn without the menu and status bars (a slide);
// ui_scale as the window's. Throws
// vit::Error when no model has run on a photo.
WindowSnapshot render_window(const session::AppState& s, int width, int height, float ui_scale = 1);

}  // namespace ui
