#include "ui/panels/replace_dialog.h"

#include <algorithm>
#include <string>
#include <vector>

#include <imgui.h>

#include "ui/widgets/bounded_text.h"
#include "ui/widgets/imgui_helpers.h"

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
        // A path of any length: wrapped, and bounded as all outside text is.
        ImGui::TextWrapped("%s", bounded(path).c_str());
        ImGui::TextWrapped("%s", "Replace it with the export, or keep it?");
        // Where each button is, for tests that click one.
        std::vector<session::PageTarget> buttons;
        const bool replace = ImGui::Button("Replace");
        buttons.push_back(last_item_target("replace"));
        ImGui::SameLine();
        const bool keep = ImGui::Button("Keep it") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape));
        buttons.push_back(last_item_target("keep"));
        if (replace || keep) {
            f.emit(session::cmd::AnswerReplace{replace});
            ImGui::CloseCurrentPopup();
        } else if (!ImGui::IsWindowAppearing()) {
            // Not on the frame it appears: it is laid out before its size is known, and moves on the next.
            f.drawn.replace_buttons = std::move(buttons);
        }
        ImGui::EndPopup();
    }
}

}  // namespace ui
