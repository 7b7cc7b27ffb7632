// The whole window's content for one frame: menu, the three panels, status
// bar, dialogs and shortcuts. Owns the panels (their GL caches); the state
// stays in the AppState.
#pragma once
#include "ui/panels/exercise_panel.h"
#include "ui/panels/file_browser.h"
#include "ui/panels/get_model_dialog.h"
#include "ui/panels/heads_panel.h"
#include "ui/panels/math_panel.h"
#include "ui/panels/photo_panel.h"
#include "ui/panels/questions_panel.h"
#include "ui/panels/learning_lab_panel.h"
#include "ui/panels/side_by_side_view.h"
#include "ui/panels/whatif_panel.h"
#include "ui/widgets/frame.h"
#include "ui/widgets/layout.h"

namespace ui {

class MainView {
public:
    void draw(const Frame& f);

private:
    void panels(const Frame& f, const Layout& layout);  // photo, heads and layers, the tabs

    PhotoPanel photo_;
    HeadsPanel heads_;
    MathPanel math_;
    WhatIfPanel whatif_;
    QuestionsPanel questions_;
    SideBySideView side_by_side_;
    LearningLabPanel lab_;
    ExercisePanel exercise_;  // the live exercise, in the math panel's place
    FileBrowser browser_;
    GetModelDialog get_model_;
    session::AppState::Tab shown_tab_ = session::AppState::Tab::Math;  // the tab ImGui showed last frame
};

}  // namespace ui
