#include "ui/widgets/figure_probe.h"

#include <algorithm>

#include <imgui_internal.h>

namespace ui {
namespace {
FigureProbe* probing = nullptr;  // the innermost live probe; drawing is single-threaded
}  // namespace

FigureProbe::FigureProbe() : outer_(probing) { probing = this; }
FigureProbe::~FigureProbe() { probing = outer_; }

void report_figure(const char* kind, ImVec2 min, ImVec2 max) {
    if (!probing || !probing->first_.kind.empty()) return;
    const ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 clip_min = dl->GetClipRectMin(), clip_max = dl->GetClipRectMax();
    const float x0 = std::max(min.x, clip_min.x), y0 = std::max(min.y, clip_min.y);
    const float x1 = std::min(max.x, clip_max.x), y1 = std::min(max.y, clip_max.y);
    probing->first_ = {kind,
                       {min.x, min.y, max.x - min.x, max.y - min.y, x0, y0, std::max(0.f, x1 - x0),
                        std::max(0.f, y1 - y0)}};
}

void end_figure_table() {
    // The table's outer rectangle is final only once EndTable has measured its rows.
    const ImGuiTable* table = ImGui::GetCurrentTable();
    ImGui::EndTable();
    if (table) report_figure("table", table->OuterRect.Min, table->OuterRect.Max);
}

}  // namespace ui
