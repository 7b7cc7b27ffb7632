#include "ui/panels/replace_dialog.h"

#include <algorithm>
#include <string>

#include <imgui.h>

namespace ui {

void replace_dialog(const Frame& f) {
    const std::string& path = f.s.replace_question;
    if (path.empty()) return;
    constexpr const char* kTitle = "Replace the file?";
    if (!ImGui::IsPopupOpen(kTitle)) ImGui::OpenPopup(kTitle);
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->GetCenter(), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(std::min(vp->Size.x - f.px(40), f.px(520)), 0));
    if (ImGui::BeginPopupModal(kTitle, nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings)) {
        ImGui::TextWrapped("%s", "This file exists already:");
        // A path of any length: wrapped, and clipped past what a line of the dialog can show.
        constexpr size_t kShown = 600;
        const std::string shown = path.size() > kShown ? path.substr(0, kShown) + "..." : path;
        ImGui::TextWrapped("%s", shown.c_str());
        ImGui::TextWrapped("%s", "Replace it with the export, or keep it?");
        if (ImGui::Button("Replace")) {
            f.emit(session::act::AnswerReplace{true});
            ImGui::CloseCurrentPopup();
        }
        ImGui::SameLine();
        if (ImGui::Button("Keep it") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
            f.emit(session::act::AnswerReplace{false});
            ImGui::CloseCurrentPopup();
        }
        ImGui::EndPopup();
    }
}

}  // namespace ui
