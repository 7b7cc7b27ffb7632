#include "ui/widgets/draw_frame.h"

#include <backends/imgui_impl_opengl3.h>
#include "gfx/gl.h"
#include <imgui.h>

#include "gfx/render_target.h"

namespace ui {

void draw_frame_over_panel_colour() {
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glClearColor(bg.x, bg.y, bg.z, 1.f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

gfx::RgbaImage read_back_frame(int width, int height) {
    gfx::RenderTarget target(width, height);
    target.bind();
    glDisable(GL_SCISSOR_TEST);
    draw_frame_over_panel_colour();
    gfx::RgbaImage image = target.read();
    for (size_t i = 3; i < image.pixels.size(); i += 4) image.pixels[i] = 255;  // opaque, as on screen
    return image;
}

}  // namespace ui
