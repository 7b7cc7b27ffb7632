#include "ui/widgets/color_bar.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "gfx/colorbar_ticks.h"
#include "ui/widgets/gl_cache.h"

namespace ui {

namespace {
constexpr float kBarHeight = 10, kTickHeight = 4;  // logical pixels
}  // namespace

float color_bar_height(const Frame& f) { return f.px(kBarHeight + kTickHeight) + ImGui::GetTextLineHeight(); }

void color_bar(const Frame& f, const MapData& map, float width, const char* unit) {
    const float bar_h = f.px(kBarHeight), tick_h = f.px(kTickHeight);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    if (GLuint tex = f.gpu.colormap_texture(map.style.colormap))
        dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(tex)), p, ImVec2(p.x + width, p.y + bar_h),
                     ImVec2(0, 1), ImVec2(1, 0));
    dl->AddRect(p, ImVec2(p.x + width, p.y + bar_h), IM_COL32(0, 0, 0, 160));

    const int max_ticks = std::clamp(static_cast<int>(width / f.px(60)), 2, 6);
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), muted = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    ImGui::PushFont(f.fonts.mono);
    // Round ticks first, then the exact ends where they fit: the range of this very map.
    std::vector<std::pair<float, float>> taken;
    auto label = [&](float x, const std::string& s, ImU32 colour, bool tick) {
        const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
        const float tx = std::clamp(x - ts.x * 0.5f, p.x, p.x + width - ts.x), gap = f.px(6);
        for (const auto& [a, b] : taken)
            if (tx < b + gap && tx + ts.x > a - gap) return;  // never let labels overlap
        if (tick) dl->AddLine(ImVec2(x, p.y + bar_h), ImVec2(x, p.y + bar_h + tick_h), colour);
        dl->AddText(ImVec2(tx, p.y + bar_h + tick_h), colour, s.c_str());
        taken.emplace_back(tx, tx + ts.x);
    };
    for (const gfx::Tick& t : gfx::colorbar_ticks(map.style, map.row_max, max_ticks))
        label(p.x + t.position * width, t.label, text, true);
    for (float end : {0.f, 1.f}) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.3g", gfx::value_at_position(map.style, map.row_max, end));
        label(p.x + end * width, buf, muted, false);
    }
    ImGui::PopFont();
    ImGui::Dummy(ImVec2(width, color_bar_height(f)));
    if (ImGui::IsItemHovered()) {
        const char* how = map.style.normalization == gfx::Normalization::RowMax ? "scaled to the largest patch value"
                          : map.style.normalization == gfx::Normalization::Log
                              ? "log scale, three decades below the largest"
                              : "absolute values";
        ImGui::SetTooltip("Colour = %s (%s)", unit, how);
    }
}

}  // namespace ui
