#include "ui/figures/window_snapshot.h"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include "gfx/render_target.h"
#include "ui/panels/main_view.h"
#include "ui/widgets/draw_frame.h"
#include "ui/widgets/fonts.h"
#include "ui/widgets/gl_cache.h"
#include "ui/widgets/offscreen_imgui.h"
#include "vit/base/error.h"

namespace ui {
namespace {

constexpr int kFrames = 4;       // the tab chosen by the state shows a frame later; tables settle

}  // namespace

WindowSnapshot render_window(const session::AppState& state, int width, int height, float ui_scale) {
    if (!state.trace() || !state.loaded.image) throw vit::Error("nothing to draw yet: no model has run on a photo");
    session::AppState s = state;
    s.sel.hovered_key = -1;

    gfx::FramebufferScope keep;  // the window's GL state, when the window asks
    OffscreenImGui imgui(kFontSize * ui_scale, 1, s.theme, ui_scale);
    GlCache gpu;
    if (!gpu.error().empty()) throw vit::Error("slide: " + gpu.error());
    gpu.sync(s);
    MainView view;
    std::vector<session::Action> actions;
    for (int frame = 0; frame < kFrames; ++frame) {
        actions.clear();
        ImGui::GetIO().DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
        ImGui_ImplOpenGL3_NewFrame();
        ImGui::NewFrame();
        view.draw(Frame{s, actions, gpu, imgui.fonts(), ui_scale, 1.f, false, nullptr, true});
        ImGui::Render();
    }

    WindowSnapshot out;
    gfx::RenderTarget target(width, height);
    target.bind();
    glDisable(GL_SCISSOR_TEST);
    draw_frame_over_panel_colour();
    out.image = target.read();
    for (size_t i = 3; i < out.image.pixels.size(); i += 4) out.image.pixels[i] = 255;  // opaque, as on screen
    for (const session::Action& a : actions)
        if (std::holds_alternative<session::act::RunExperiment>(a) || std::holds_alternative<session::act::RunAnalysis>(a))
            out.asked.push_back(a);
    return out;
}

}  // namespace ui
