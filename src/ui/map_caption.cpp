#include "map_caption.h"

#include <algorithm>

namespace ui {

float caption_height(std::initializer_list<const char*> texts, float width) {
    float h = 0;
    for (const char* t : texts) h = std::max(h, ImGui::CalcTextSize(t, nullptr, false, width).y);
    return h;
}

void map_caption(const char* text, float width, float height, ImVec4 colour) {
    const float top = ImGui::GetCursorPosY();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
    ImGui::TextColored(colour, "%s", text);
    ImGui::PopTextWrapPos();
    const float below = top + height + ImGui::GetStyle().ItemSpacing.y;
    if (ImGui::GetCursorPosY() < below) ImGui::SetCursorPosY(below);
}

}  // namespace ui
