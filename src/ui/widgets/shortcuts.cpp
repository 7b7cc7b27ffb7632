#include "ui/widgets/shortcuts.h"

#include <GLFW/glfw3.h>

#include "session/homework/live_exercise.h"

namespace ui {
namespace {

// ImGui 1.86's GLFW backend indexes keys by GLFW key code.
bool pressed(int glfw_key, bool repeat = false) { return ImGui::IsKeyPressed(glfw_key, repeat); }

}  // namespace

void shortcuts(const Frame& f) {
    using namespace session::act;
    using namespace session::cmd;
    const ImGuiIO& io = ImGui::GetIO();
    const session::AppState& s = f.s;
    if (pressed(GLFW_KEY_F12)) f.emit(Screenshot{""});
    if (io.WantTextInput || ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId)) return;
    if (pressed(GLFW_KEY_F1)) f.emit(ShowHelp{!s.show_help});

    if (io.KeyCtrl) {
        if (pressed(GLFW_KEY_O)) f.emit(OpenBrowser{session::BrowserState::Mode::OpenImage, ""});
        if (pressed(GLFW_KEY_M)) f.emit(OpenBrowser{session::BrowserState::Mode::OpenModel, ""});
        if (pressed(GLFW_KEY_E) && s.trace()) f.emit(ExportFigure{""});
        if (pressed(GLFW_KEY_Q)) f.emit(Quit{});
        return;
    }
    if (session::live_exercise_on(s)) {  // the live exercise runs on the tour's machinery: its keys first
        const int i = s.live_exercise.index;
        if (pressed(GLFW_KEY_RIGHT) || pressed(GLFW_KEY_PAGE_DOWN)) f.emit(Live{session::live::Go{i + 1}});
        if (pressed(GLFW_KEY_LEFT) || pressed(GLFW_KEY_PAGE_UP)) f.emit(Live{session::live::Go{i - 1}});
        if (pressed(GLFW_KEY_ENTER) || pressed(GLFW_KEY_KP_ENTER)) f.emit(Live{session::live::Reveal{}});
        if (pressed(GLFW_KEY_ESCAPE)) f.emit(Live{session::live::End{}});
        return;
    }
    if (s.tour.tour) {  // the arrows and Esc belong to the tour while it is on
        if (pressed(GLFW_KEY_RIGHT) || pressed(GLFW_KEY_PAGE_DOWN)) f.emit(TourGo{s.tour.step + 1});
        if (pressed(GLFW_KEY_LEFT) || pressed(GLFW_KEY_PAGE_UP)) f.emit(TourGo{s.tour.step - 1});
        if (pressed(GLFW_KEY_ESCAPE)) f.emit(ExitTour{});
        if (pressed(GLFW_KEY_H)) f.emit(FoldTourText{!s.tour.text_folded});
        return;
    }
    if (pressed(GLFW_KEY_P)) f.emit(SetClassroom{!s.classroom});
    if (s.classroom && pressed(GLFW_KEY_PERIOD)) f.emit(SetMathStep{s.math_step + 1});
    if (s.classroom && pressed(GLFW_KEY_COMMA)) f.emit(SetMathStep{s.math_step - 1});
    if (pressed(GLFW_KEY_C)) f.emit(SelectQuery{0});
    if (pressed(GLFW_KEY_Q)) f.emit(ShowTab{session::AppState::Tab::Questions});
    if (pressed(GLFW_KEY_LEFT, true)) f.emit(MoveQuery{0, -1});
    if (pressed(GLFW_KEY_RIGHT, true)) f.emit(MoveQuery{0, 1});
    if (pressed(GLFW_KEY_UP, true)) f.emit(MoveQuery{-1, 0});
    if (pressed(GLFW_KEY_DOWN, true)) f.emit(MoveQuery{1, 0});
    if (pressed(GLFW_KEY_PAGE_UP, true)) f.emit(StepLayer{-1});
    if (pressed(GLFW_KEY_PAGE_DOWN, true)) f.emit(StepLayer{1});
    if (pressed(GLFW_KEY_LEFT_BRACKET, true)) f.emit(SetHead{s.sel.head - 1});
    if (pressed(GLFW_KEY_RIGHT_BRACKET, true)) f.emit(SetHead{s.sel.head + 1});
    if (pressed(GLFW_KEY_M))
        f.emit(SetMapSource{s.sel.source == session::MapSource::Head ? session::MapSource::MeanOfVisible
                                                                     : session::MapSource::Head});
    if (pressed(GLFW_KEY_ESCAPE)) {
        if (s.show_help) f.emit(ShowHelp{false});
        else f.emit(PinKey{-1});
    }
}

}  // namespace ui
