#include "ui/panels/main_view.h"

#include "session/homework/live_exercise.h"
#include "ui/panels/help_window.h"
#include "ui/panels/menu_bar.h"
#include "ui/panels/predict_bar.h"
#include "ui/panels/replace_dialog.h"
#include "ui/panels/status_bar.h"
#include "ui/panels/tour_card.h"
#include "ui/widgets/gl_cache.h"
#include "ui/widgets/layout.h"
#include "ui/widgets/shortcuts.h"
#include "ui/widgets/theme.h"

namespace ui {
namespace {

// No background of their own: the window is cleared to the panels' colour
// (WindowBg) every frame and they tile it, so their fill painted that colour
// over the whole window a second time, which llvmpipe pays for per pixel (an
// idle 1080p frame: 21.5 -> 13.3 ms).
constexpr ImGuiWindowFlags kPanel = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                    ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus |
                                    ImGuiWindowFlags_NoBackground;

// ImGui leaves a window's border out with its background: drawn here as
// ImGui draws it, over the whole window (its title bar included).
void outline_panel() {
    const ImGuiStyle& style = ImGui::GetStyle();
    if (style.WindowBorderSize <= 0) return;
    const ImVec2 min = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    const ImVec2 max(min.x + size.x, min.y + size.y);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->PushClipRect(min, max);
    dl->AddRect(min, max, ImGui::GetColorU32(ImGuiCol_Border), style.WindowRounding, 0, style.WindowBorderSize);
    dl->PopClipRect();
}

// Classroom mode: no title bars, their lines go to the photo and the math step.
bool begin_panel(const Frame& f, const char* title, const PanelRect& r, ImGuiWindowFlags extra = 0) {
    if (f.s.classroom) extra |= ImGuiWindowFlags_NoTitleBar;
    ImGui::SetNextWindowPos(r.pos);
    ImGui::SetNextWindowSize(r.size);
    if (r.scrolls) extra &= ~(ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    const bool shown = ImGui::Begin(title, nullptr, kPanel | extra);
    outline_panel();
    return shown;
}

}  // namespace

void MainView::draw(const Frame& f) {
    // A slide (a still picture of the window) has no menu or status bar: nothing on it can be pressed.
    const float top = f.still ? 0.f : menu_bar(f);
    const float bottom = f.still ? 0.f : status_bar_height();
    const Layout layout = compute_layout(ImGui::GetIO().DisplaySize, top, bottom, f.s.classroom);
    Layout docked = layout;
    // The live exercise runs on the tour machinery; its panel takes the card's place.
    const bool live = session::live_exercise_on(f.s);
    if (!live) dock_tour_card(f, docked);
    if (f.s.lab.open) {
        // The Learning lab in place of the panels, as side by side.
        const ImVec2 end(layout.math.pos.x + layout.math.size.x, layout.math.pos.y + layout.math.size.y);
        lab_.draw(f, PanelRect{layout.photo.pos, ImVec2(end.x - layout.photo.pos.x, end.y - layout.photo.pos.y)});
    } else if (f.s.side_by_side.open) {
        // In place of the three panels: from the photo panel's top left to the math panel's bottom right.
        const ImVec2 end(layout.math.pos.x + layout.math.size.x, layout.math.pos.y + layout.math.size.y);
        side_by_side_.draw(f,
                           PanelRect{layout.photo.pos, ImVec2(end.x - layout.photo.pos.x, end.y - layout.photo.pos.y)});
    } else {
        panels(f, docked);
    }
    if (!live) tour_card(f, layout);
    f.drawn.maps = f.gpu.map_tally().rects;
    if (!f.still) status_bar(f, bottom);
    help_window(f);
    browser_.draw(f);
    get_model_.draw(f);
    replace_dialog(f);
    shortcuts(f);
}

void MainView::panels(const Frame& f, const Layout& layout) {
    if (begin_panel(f, "Photo", layout.photo, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse))
        photo_.draw(f, questions_.shown_view(f));
    ImGui::End();

    if (begin_panel(f, "Heads and layers", layout.heads,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse)) {
        // While an exercise is asked, its layer and head stay: the question names them.
        ImGui::BeginDisabled(session::live_exercise_hides_maps(f.s));
        heads_.draw(f);
        ImGui::EndDisabled();
    }
    ImGui::End();

    if (begin_panel(f, "Inside one head", layout.math)) {
        if (session::live_exercise_on(f.s)) {
            exercise_.draw(f);
        } else if (maps_hidden(f.s)) {
            hidden_while_predicting(f);
        } else if (ImGui::BeginTabBar("##right")) {
            // A tab chosen through the state (a script) is forced once; clicks report back.
            using Tab = session::AppState::Tab;
            auto flags_for = [&](Tab t) { return f.s.tab == t && shown_tab_ != t ? ImGuiTabItemFlags_SetSelected : 0; };
            Tab shown = shown_tab_;
            // Classroom type: a shorter name, so the three tabs keep their whole names at 1024 px.
            if (ImGui::BeginTabItem(f.s.classroom ? "Step by step###math" : "Attention, step by step###math", nullptr,
                                    flags_for(Tab::Math))) {
                shown = Tab::Math;
                ImGui::BeginChild("##math");
                math_.draw(f);
                ImGui::EndChild();
                ImGui::EndTabItem();
            }
            ImGui::PushStyleColor(ImGuiCol_Text, colors::whatif);
            const bool whatifs = ImGui::BeginTabItem("What-ifs", nullptr, flags_for(Tab::WhatIfs));
            ImGui::PopStyleColor();
            if (whatifs) {
                shown = Tab::WhatIfs;
                ImGui::BeginChild("##whatif");
                whatif_.draw(f);
                ImGui::EndChild();
                ImGui::EndTabItem();
            }
            if (ImGui::BeginTabItem("Questions", nullptr, flags_for(Tab::Questions))) {
                shown = Tab::Questions;
                ImGui::BeginChild("##questions");
                questions_.draw(f);
                ImGui::EndChild();
                ImGui::EndTabItem();
            }
            if (shown != shown_tab_ && shown != f.s.tab && f.s.tab == shown_tab_) f.emit(session::act::ShowTab{shown});
            shown_tab_ = shown;
            ImGui::EndTabBar();
        }
    }
    ImGui::End();
}

}  // namespace ui
