#include "color_bar.h"

#include <algorithm>

#include "gfx/colorbar_ticks.h"
#include "gpu.h"

namespace ui {

void color_bar(const Frame& f, const MapData& map, float width, const char* unit) {
    const float bar_h = f.px(10), tick_h = f.px(4);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    if (GLuint tex = f.gpu.colormap_texture(map.style.colormap))
        dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(tex)), p, ImVec2(p.x + width, p.y + bar_h),
                     ImVec2(0, 1), ImVec2(1, 0));
    dl->AddRect(p, ImVec2(p.x + width, p.y + bar_h), IM_COL32(0, 0, 0, 160));

    const int max_ticks = std::clamp(static_cast<int>(width / f.px(60)), 2, 6);
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    ImGui::PushFont(f.fonts.mono);
    float last_right = -1e9f;
    for (const gfx::Tick& t : gfx::colorbar_ticks(map.style, map.row_max, max_ticks)) {
        const float x = p.x + t.position * width;
        dl->AddLine(ImVec2(x, p.y + bar_h), ImVec2(x, p.y + bar_h + tick_h), text);
        const ImVec2 ts = ImGui::CalcTextSize(t.label.c_str());
        const float tx = std::clamp(x - ts.x * 0.5f, p.x, p.x + width - ts.x);
        if (tx < last_right + f.px(4)) continue;  // never let labels overlap
        dl->AddText(ImVec2(tx, p.y + bar_h + tick_h), text, t.label.c_str());
        last_right = tx + ts.x;
    }
    ImGui::PopFont();
    ImGui::Dummy(ImVec2(width, bar_h + tick_h + ImGui::GetTextLineHeight()));
    if (ImGui::IsItemHovered()) {
        const char* how = map.style.normalization == gfx::Normalization::RowMax   ? "scaled to the largest patch value"
                          : map.style.normalization == gfx::Normalization::Log    ? "log scale, three decades below the largest"
                                                                                  : "absolute values";
        ImGui::SetTooltip("Colour = %s (%s)", unit, how);
    }
}

}  // namespace ui
