#include "ui/widgets/offscreen_imgui.h"

#include <string>

#include <backends/imgui_impl_opengl3.h>

#include "ui/widgets/theme.h"
#include "vit/base/error.h"

namespace ui {

OffscreenImGui::OffscreenImGui(float font_size, float density, Theme theme, float ui_scale)
    : previous_(ImGui::GetCurrentContext()), context_(ImGui::CreateContext()), previous_palette_(detail::shown) {
    ImGui::SetCurrentContext(context_);
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.LogFilename = nullptr;
    io.DeltaTime = 1.f / 60;  // fixed: nothing animates differently from one picture to the next
    io.DisplayFramebufferScale = ImVec2(density, density);
    std::string warning;  // without DejaVu the window shows the same '?' glyphs
    fonts_ = load_fonts(font_size, density, warning);
    apply_theme(theme, ui_scale);
    if (!ImGui_ImplOpenGL3_Init("#version 330 core")) {
        release();
        throw vit::Error("figure: Dear ImGui's OpenGL renderer could not start");
    }
}

OffscreenImGui::~OffscreenImGui() {
    ImGui_ImplOpenGL3_Shutdown();
    release();
}

void OffscreenImGui::release() {
    detail::shown = previous_palette_;  // the window's panels keep their theme's colours
    ImGui::DestroyContext(context_);
    ImGui::SetCurrentContext(previous_);
}

}  // namespace ui
