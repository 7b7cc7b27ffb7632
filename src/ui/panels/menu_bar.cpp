#include "ui/panels/menu_bar.h"

#include "gfx/style_names.h"

namespace ui {
namespace {

void file_menu(const Frame& f) {
    const session::AppState& s = f.s;
    if (!ImGui::BeginMenu("File")) return;
    if (ImGui::MenuItem("Open image…", "Ctrl+O"))
        f.emit(session::act::OpenBrowser{session::BrowserState::Mode::OpenImage, ""});
    if (ImGui::MenuItem("Open model…", "Ctrl+M"))
        f.emit(session::act::OpenBrowser{session::BrowserState::Mode::OpenModel, ""});
    if (ImGui::MenuItem("Compare with…", nullptr, false, s.trace() != nullptr))
        f.emit(session::act::OpenBrowser{session::BrowserState::Mode::OpenCompare, ""});
    if (ImGui::MenuItem("Get a model…")) f.emit(session::act::ShowGetModel{true});
    if (ImGui::MenuItem("Learning lab…"))
        f.emit(session::act::Lab{session::lab::Show{true}});  // train a tiny ViT, scrub its checkpoints
    ImGui::Separator();
    if (ImGui::MenuItem("Open lesson…")) f.emit(session::act::OpenBrowser{session::BrowserState::Mode::OpenLesson, ""});
    if (ImGui::MenuItem("Save lesson", nullptr, false, s.trace() != nullptr))
        f.emit(session::cmd::SaveLesson{"", false});
    if (ImGui::MenuItem("Save lesson with the photo inside", nullptr, false, s.trace() != nullptr))
        f.emit(session::cmd::SaveLesson{"", true});
    ImGui::Separator();
    if (ImGui::MenuItem("Export figure", "Ctrl+E", false, s.trace() != nullptr)) f.emit(session::cmd::ExportFigure{""});
    if (ImGui::MenuItem("Export tour as slides", nullptr, false, s.trace() != nullptr))
        f.emit(session::cmd::ExportTourSlides{""});
    if (s.lab.open && ImGui::MenuItem("Export the lab's timeline as slides", nullptr, false, s.lab.run && s.trace()))
        f.emit(session::cmd::Lab{session::lab::ExportSlides{""}});
    if (ImGui::MenuItem("Export lesson page (HTML)", nullptr, false, s.trace() != nullptr))
        f.emit(session::cmd::ExportLesson{""});
    if (ImGui::MenuItem("Export homework (page, worksheet, answer key)", nullptr, false, s.trace() != nullptr))
        f.emit(session::cmd::ExportHomework{""});
    if (ImGui::MenuItem("Exercises in class (live)", nullptr, false, s.trace() != nullptr))
        f.emit(session::cmd::OpenExercises{""});  // the sample that ships
    if (ImGui::MenuItem("Exercises in class, from a file…", nullptr, false, s.trace() != nullptr))
        f.emit(session::act::OpenBrowser{session::BrowserState::Mode::OpenExercises, ""});
    if (ImGui::MenuItem("Record a sweep path", nullptr, s.sweep_path.recording, s.trace() != nullptr))
        f.emit(session::act::RecordSweepPath{!s.sweep_path.recording});
    if (ImGui::MenuItem(s.sweep_path.tokens.empty() ? "Export sweep (GIF), every patch"
                                                    : "Export sweep (GIF) along the path",
                        nullptr, false, s.trace() != nullptr))
        f.emit(session::cmd::ExportSweep{""});
    if (ImGui::MenuItem("Screenshot of the window", "F12")) f.emit(session::cmd::Screenshot{""});
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) f.emit(session::cmd::Quit{});
    ImGui::EndMenu();
}

void view_menu(const Frame& f) {
    const session::AppState& s = f.s;
    if (!ImGui::BeginMenu("View")) return;
    gfx::OverlayStyle st = s.style;
    bool changed = false;
    if (ImGui::BeginMenu("Colormap")) {
        for (gfx::Colormap c : {gfx::Colormap::Viridis, gfx::Colormap::Magma, gfx::Colormap::Turbo})
            if (ImGui::MenuItem(gfx::name_of(c), nullptr, st.colormap == c)) st.colormap = c, changed = true;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Scale")) {
        for (gfx::Normalization n : gfx::kNormalizations)
            if (ImGui::MenuItem(gfx::kNormalizationLabels[static_cast<int>(n)], nullptr, st.normalization == n))
                st.normalization = n, changed = true;
        ImGui::EndMenu();
    }
    if (ImGui::MenuItem("Smooth (bilinear)", nullptr, st.bilinear)) st.bilinear = !st.bilinear, changed = true;
    if (ImGui::MenuItem("Patch grid", nullptr, st.show_grid)) st.show_grid = !st.show_grid, changed = true;
    if (changed) f.emit(session::act::SetStyle{st});
    ImGui::Separator();
    const bool mean = s.sel.source == session::MapSource::MeanOfVisible;
    if (ImGui::MenuItem("Selected head", nullptr, !mean)) f.emit(session::act::SetMapSource{session::MapSource::Head});
    if (ImGui::MenuItem("Mean of visible heads", "M", mean))
        f.emit(session::act::SetMapSource{session::MapSource::MeanOfVisible});
    ImGui::Separator();
    if (ImGui::MenuItem("CLS as query", "C", false, s.trace() != nullptr)) f.emit(session::act::SelectQuery{0});
    if (ImGui::MenuItem("Release pinned key", "Esc", false, s.sel.pinned_key >= 0)) f.emit(session::act::PinKey{-1});
    ImGui::Separator();
    if (ImGui::MenuItem("Classroom (projector)", "P", s.classroom)) f.emit(session::act::SetClassroom{!s.classroom});
    if (ImGui::MenuItem("Side by side", nullptr, s.side_by_side.open, s.trace() != nullptr))
        f.emit(session::act::ShowSideBySide{!s.side_by_side.open});
    if (ImGui::BeginMenu("Theme")) {
        using Theme = session::AppState::Theme;
        if (ImGui::MenuItem("Dark", nullptr, s.theme == Theme::Dark)) f.emit(session::act::SetTheme{Theme::Dark});
        if (ImGui::MenuItem("Light (bright rooms, print)", nullptr, s.theme == Theme::Light))
            f.emit(session::act::SetTheme{Theme::Light});
        ImGui::EndMenu();
    }
    ImGui::EndMenu();
}

}  // namespace

float menu_bar(const Frame& f) {
    float h = 0;
    if (ImGui::BeginMainMenuBar()) {
        file_menu(f);
        view_menu(f);
        if (ImGui::BeginMenu("Help")) {
            if (ImGui::MenuItem("Guided tour")) f.emit(session::cmd::OpenTour{""});
            if (ImGui::MenuItem("Learning lab: how attention is learned"))
                f.emit(session::act::Lab{session::lab::Show{true}});
            if (ImGui::MenuItem("Mouse and keyboard", "F1")) f.emit(session::act::ShowHelp{true});
            ImGui::EndMenu();
        }
        h = ImGui::GetWindowSize().y;
        ImGui::EndMainMenuBar();
    }
    return h;
}

}  // namespace ui
