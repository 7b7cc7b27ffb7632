#include "ui/panels/status_bar.h"

#include <filesystem>

#include "ui/widgets/theme.h"

namespace ui {

float status_bar_height() { return ImGui::GetFrameHeight() + ImGui::GetStyle().WindowPadding.y; }

void status_bar(const Frame& f, float height) {
    const session::AppState& s = f.s;
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(0, display.y - height));
    ImGui::SetNextWindowSize(ImVec2(display.x, height));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(f.px(10), f.px(3)));
    ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0.14f, 0.145f, 0.16f, 1.f));
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
    if (ImGui::Begin("##status", nullptr, flags)) {
        ImGui::AlignTextToFramePadding();
        if (const vit::Trace* t = s.trace()) {
            const std::string name = s.loaded.model ? s.loaded.model->config.name : "";
            const std::string model = name.empty() ? std::filesystem::path(s.loaded.model_dir).filename().string() : name;
            ImGui::Text("%s · %d layers × %d heads · %d tokens (%d×%d patches + %d) · forward pass %.0f ms", model.c_str(),
                        s.layers(), s.heads(), t->tokens, t->grid, t->grid, t->prefix, 1000.0 * s.last_forward_seconds);
        } else {
            ImGui::TextColored(colors::muted, "no model run yet");
        }
        ImGui::SameLine();
        ImGui::TextColored(colors::muted, " · frame %.1f ms", s.frame_ms);
        if (s.work.busy) {
            ImGui::SameLine();
            ImGui::TextColored(colors::accent, " · %s… %.1f s", s.work.stage.c_str(), s.work.seconds);
        }
        if (!s.last_error.empty()) {
            ImGui::SameLine();
            ImGui::TextColored(colors::error, " · %s", s.last_error.c_str());
        } else if (!s.status.empty()) {
            ImGui::SameLine();
            ImGui::TextColored(colors::ok, " · %s", s.status.c_str());
        }
    }
    ImGui::End();
    ImGui::PopStyleColor();
    ImGui::PopStyleVar();
}

}  // namespace ui
