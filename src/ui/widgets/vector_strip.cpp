#include "ui/widgets/vector_strip.h"

#include <algorithm>
#include <cmath>

#include "ui/widgets/figure_probe.h"

namespace ui {

ImU32 diverging_color(float v, float extent) {
    static const float knots[5][3] = {{0.150f, 0.280f, 0.620f},
                                      {0.530f, 0.680f, 0.880f},
                                      {0.965f, 0.965f, 0.965f},
                                      {0.930f, 0.560f, 0.460f},
                                      {0.690f, 0.090f, 0.150f}};
    const float t = extent > 0 ? std::clamp(0.5f + 0.5f * v / extent, 0.f, 1.f) : 0.5f;
    const float x = t * 4.f;
    const int i = std::min(static_cast<int>(x), 3);
    const float a = x - static_cast<float>(i);
    float c[3];
    for (int k = 0; k < 3; ++k) c[k] = knots[i][k] + (knots[i + 1][k] - knots[i][k]) * a;
    return ImGui::GetColorU32(ImVec4(c[0], c[1], c[2], 1.f));
}

int vector_strip(const Frame& f, const char* id, const float* values, int n, float extent, float width) {
    if (n <= 0) return -1;
    const float h = f.px(16);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float cell = width / static_cast<float>(n);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (int i = 0; i < n; ++i) {
        const float x0 = p.x + cell * i, x1 = p.x + cell * (i + 1);
        dl->AddRectFilled(ImVec2(x0, p.y), ImVec2(x1, p.y + h), diverging_color(values[i], extent));
    }
    dl->AddRect(ImVec2(p.x - 1, p.y - 1), ImVec2(p.x + width + 1, p.y + h + 1), IM_COL32(90, 90, 90, 255));
    if (f.drawn.record_cells) f.drawn.add_cells({f.cells_name(id), p.x, p.y, cell, 0, n, 1, 1, h});  // one row of n
    ImGui::InvisibleButton(id, ImVec2(width, h));
    report_figure("picture", p, ImVec2(p.x + width, p.y + h));
    if (!ImGui::IsItemHovered()) return -1;
    const int i = std::clamp(static_cast<int>((ImGui::GetIO().MousePos.x - p.x) / cell), 0, n - 1);
    dl->AddRect(ImVec2(p.x + cell * i, p.y - 2), ImVec2(p.x + cell * (i + 1), p.y + h + 2),
                IM_COL32(255, 255, 255, 255), 0, 0, 2);
    ImGui::SetTooltip("dimension %d: %.4f", i, values[i]);
    return i;
}

}  // namespace ui
