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

constexpr int kFrames = 4;  // the tab chosen by the state shows a frame later; tables settle

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
    std::vector<session::Request> requests;
    session::DrawnReport drawn;
    for (int frame = 0; frame < kFrames; ++frame) {
        requests.clear();
        ImGui::GetIO().DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
        ImGui_ImplOpenGL3_NewFrame();
        ImGui::NewFrame();
        view.draw(Frame{s, requests, drawn, gpu, imgui.fonts(), ui_scale, 1.f, false, true});
        ImGui::Render();
    }

    WindowSnapshot out;
    out.image = read_back_frame(width, height);
    for (const session::Request& r : requests)
        if (const auto* c = std::get_if<session::Command>(&r);
            c && (std::holds_alternative<session::cmd::RunExperiment>(*c) ||
                  std::holds_alternative<session::cmd::RunAnalysis>(*c)))
            out.asked.push_back(*c);
    return out;
}

}  // namespace ui
