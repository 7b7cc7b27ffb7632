#include "ui/widgets/plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "gfx/colorbar_ticks.h"
#include "ui/widgets/figure_probe.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/print_text.h"
#include "ui/widgets/theme.h"

namespace ui {
namespace {

struct Range {
    double lo, hi;
};

Range data_range(const std::vector<PlotSeries>& series, bool along_x, double lo, double hi) {
    if (lo < hi) return {lo, hi};
    double a = INFINITY, b = -INFINITY;
    bool bars = false;
    for (const PlotSeries& s : series) {
        const auto& v = along_x ? s.x : s.y;
        for (double x : v)
            if (std::isfinite(x)) a = std::min(a, x), b = std::max(b, x);
        bars |= s.kind == PlotSeries::Kind::Bars;
        if (along_x && s.kind == PlotSeries::Kind::Bars && !v.empty()) a -= s.bar_width / 2, b += s.bar_width / 2;
    }
    if (!std::isfinite(a)) return {0, 1};
    if (!along_x && bars) a = std::min(a, 0.0), b = std::max(b, 0.0);
    if (b <= a) return {a - 0.5, a + 0.5};
    const double pad = along_x ? 0.0 : 0.05 * (b - a);
    return {a - (a == 0 ? 0 : pad), b + pad};
}

// Round-numbered ticks over [lo, hi], as the colour bars have them.
std::vector<gfx::Tick> ticks_for(Range r, int most) {
    gfx::OverlayStyle st;
    st.normalization = gfx::Normalization::Absolute;
    st.value_min = static_cast<float>(r.lo);
    st.value_max = static_cast<float>(r.hi);
    return gfx::colorbar_ticks(st, 1.f, most);
}

}  // namespace

PlotHit plot(const Frame& f, const char* id, ImVec2 size, const PlotAxes& axes, const std::vector<PlotSeries>& series) {
    PlotHit hit;
    ImGui::PushID(id);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##plot", size);
    report_figure("plot", origin, ImVec2(origin.x + size.x, origin.y + size.y));
    const bool hovered = ImGui::IsItemHovered();
    const bool clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float line_h = ImGui::GetTextLineHeight();
    const float left = ImGui::CalcTextSize("-0.000").x + f.px(8), inner_w = size.x - left - f.px(8);
    // Axis names wrap between words in the plot's width (narrow panels); the x axis' lines take room below it.
    const std::string x_label = f.figure ? without_mouse_hints(axes.x_label) : axes.x_label;  // no "click one" in print
    const std::vector<std::string> x_lines = wrapped_lines(x_label, ImGui::GetFont(), inner_w);
    // The y axis' name and then the legend above the box: neither is drawn over the data.
    const std::vector<std::string> y_lines = wrapped_lines(axes.y_label, ImGui::GetFont(), size.x - f.px(12));
    struct LegendItem {
        const PlotSeries* series;
        std::vector<std::string> lines;  // a name wider than the plot wraps between words
        ImVec2 at;                       // relative to the legend's top-left
    };
    std::vector<LegendItem> legend;
    float legend_h = 0;
    {
        const float swatch = f.px(14), gap = f.px(14), avail = size.x - f.px(12);  // the plot's whole width
        float x = 0, y = 0, row_h = 0;
        for (const PlotSeries& s : series) {
            if (s.label.empty()) continue;
            std::vector<std::string> lines =
                wrapped_lines(s.label, ImGui::GetFont(), std::max(f.px(40), avail - swatch));
            float widest = 0;
            for (const std::string& line : lines) widest = std::max(widest, ImGui::CalcTextSize(line.c_str()).x);
            const float w = swatch + widest, h = static_cast<float>(lines.size()) * line_h;
            if (x > 0 && x + w > avail) x = 0, y += row_h, row_h = 0;
            legend.push_back({&s, std::move(lines), ImVec2(x, y)});
            x += w + gap;
            row_h = std::max(row_h, h);
        }
        if (!legend.empty()) legend_h = y + row_h + f.px(4);
    }
    const float top = static_cast<float>(y_lines.size()) * line_h + legend_h + f.px(10);
    const float bottom = (1 + std::max<size_t>(1, x_lines.size())) * line_h + f.px(8);
    const ImVec2 p0(origin.x + left, origin.y + top), p1(origin.x + size.x - f.px(8), origin.y + size.y - bottom);
    const Range xr = data_range(series, true, axes.x_lo, axes.x_hi),
                yr = data_range(series, false, axes.y_lo, axes.y_hi);
    hit.area_min = p0, hit.area_max = p1;
    // In a figure, where the data went ("PAGE/ID", one cell the size of the plotting area): tests check that
    // no legend or axis name is drawn inside it.
    if (f.drawn.record_cells) f.drawn.add_cells({f.cells_name(id), p0.x, p0.y, p1.x - p0.x, 0, 1, 1, 1, p1.y - p0.y});
    hit.x_lo = xr.lo, hit.x_hi = xr.hi, hit.y_lo = yr.lo, hit.y_hi = yr.hi;
    auto to_screen = [&](double x, double y) { return hit.to_screen(x, y); };
    const ImU32 axis = ImGui::GetColorU32(colors::muted),
                grid = ImGui::GetColorU32(ImGuiCol_Separator, 0.45f);  // faint in either theme

    // Axes, ticks and their labels.
    dl->AddRect(p0, p1, axis);
    for (const gfx::Tick& t : ticks_for(yr, std::max(2, static_cast<int>((p1.y - p0.y) / (2.5f * line_h))))) {
        const float y = p1.y - t.position * (p1.y - p0.y);
        dl->AddLine(ImVec2(p0.x, y), ImVec2(p1.x, y), grid);
        const ImVec2 ts = ImGui::CalcTextSize(t.label.c_str());
        dl->AddText(ImVec2(p0.x - ts.x - f.px(4), y - ts.y / 2), axis, t.label.c_str());
    }
    auto x_tick = [&](double x, const std::string& label) {
        const ImVec2 s = to_screen(x, yr.lo);
        dl->AddLine(s, ImVec2(s.x, s.y + f.px(3)), axis);
        const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        // Centred under its tick, but kept whole inside the plot's box: the last tick ("1000") at the right edge.
        const float left_x = std::clamp(s.x - ts.x / 2, origin.x, std::max(origin.x, origin.x + size.x - ts.x));
        dl->AddText(ImVec2(left_x, p1.y + f.px(3)), axis, label.c_str());
    };
    if (!axes.x_names.empty()) {
        for (size_t i = 0; i < axes.x_names.size(); ++i) x_tick(static_cast<double>(i), axes.x_names[i]);
    } else {
        for (const gfx::Tick& t : ticks_for(xr, std::max(2, static_cast<int>((p1.x - p0.x) / f.px(60))))) {
            const double x = xr.lo + t.position * (xr.hi - xr.lo);
            if (axes.x_integer && std::abs(x - std::round(x)) > 1e-6) continue;
            x_tick(x, t.label);
        }
    }
    for (size_t i = 0; i < x_lines.size(); ++i) {
        const ImVec2 xl = ImGui::CalcTextSize(x_lines[i].c_str());
        dl->AddText(ImVec2((p0.x + p1.x - xl.x) / 2, p1.y + (1 + i) * line_h + f.px(5)), axis, x_lines[i].c_str());
    }
    float y_label_y = origin.y + f.px(2);
    for (const std::string& line : y_lines) {
        dl->AddText(ImVec2(origin.x + f.px(4), y_label_y), axis, line.c_str());
        y_label_y += line_h;
    }

    // Legend, above the box under the y axis' name: a row of colour and name, wrapping, outside the curves.
    const ImVec2 legend_at(origin.x + f.px(4), origin.y + f.px(2) + static_cast<float>(y_lines.size()) * line_h);
    for (const LegendItem& item : legend) {
        const float x = legend_at.x + item.at.x, ly = legend_at.y + item.at.y;
        dl->AddRectFilled(ImVec2(x, ly + line_h * 0.3f), ImVec2(x + f.px(10), ly + line_h * 0.7f),
                          ImGui::GetColorU32(item.series->color));
        for (size_t i = 0; i < item.lines.size(); ++i)
            dl->AddText(ImVec2(x + f.px(14), ly + static_cast<float>(i) * line_h), ImGui::GetColorU32(ImGuiCol_Text),
                        item.lines[i].c_str());
    }

    // The data, and the point nearest the mouse.
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    float best = f.px(10) * f.px(10);
    dl->PushClipRect(p0, p1, true);
    if (axes.shade_lo < axes.shade_hi) {
        const float x0 = std::max(p0.x, to_screen(axes.shade_lo, yr.lo).x),
                    x1 = std::min(p1.x, to_screen(axes.shade_hi, yr.lo).x);
        // In the text's colour, so the band shows on the dark and the light theme alike.
        dl->AddRectFilled(ImVec2(x0, p0.y), ImVec2(x1, p1.y), ImGui::GetColorU32(ImGuiCol_Text, 0.10f));
        dl->AddLine(ImVec2(x1, p0.y), ImVec2(x1, p1.y), ImGui::GetColorU32(ImGuiCol_Text, 0.45f), f.px(1.5f));
        // At the band's top (the y axis' name sits above the box).
        dl->AddText(nullptr, 0, ImVec2(x0 + f.px(4), p0.y + f.px(4)), ImGui::GetColorU32(ImGuiCol_Text, 0.85f),
                    axes.shade_label.c_str(), nullptr, std::max(f.px(40), x1 - x0 - f.px(8)));
    }
    for (size_t si = 0; si < series.size(); ++si) {
        const PlotSeries& s = series[si];
        const ImU32 col = ImGui::GetColorU32(s.color);
        const size_t n = std::min(s.x.size(), s.y.size());
        for (size_t i = 0; i < n; ++i) {
            if (!std::isfinite(s.y[i])) continue;
            const ImVec2 p = to_screen(s.x[i], s.y[i]);
            float d2 = (p.x - mouse.x) * (p.x - mouse.x) + (p.y - mouse.y) * (p.y - mouse.y);
            switch (s.kind) {
                case PlotSeries::Kind::Line:
                    if (i + 1 < n && std::isfinite(s.y[i + 1]))
                        dl->AddLine(p, to_screen(s.x[i + 1], s.y[i + 1]), col, f.px(2));
                    break;
                case PlotSeries::Kind::Dots:
                    // Whole even on the box's edge (the last step's marker): clipped to the box grown by a dot.
                    dl->PushClipRect(ImVec2(p0.x - f.px(10), p0.y - f.px(10)), ImVec2(p1.x + f.px(10), p1.y + f.px(10)),
                                     false);
                    dl->AddCircleFilled(p, f.px(static_cast<int>(i) == s.highlight ? 6.f : 3.5f), col);
                    if (static_cast<int>(i) == s.highlight)
                        dl->AddCircle(p, f.px(8), ImGui::GetColorU32(colors::accent), 0, f.px(2));
                    dl->PopClipRect();
                    break;
                case PlotSeries::Kind::Bars: {
                    const ImVec2 a = to_screen(s.x[i] - s.bar_width / 2, std::max(0.0, yr.lo)),
                                 b = to_screen(s.x[i] + s.bar_width / 2, s.y[i]);
                    dl->AddRectFilled(ImVec2(a.x, std::min(a.y, b.y)), ImVec2(b.x, std::max(a.y, b.y)), col);
                    if (mouse.x >= a.x && mouse.x <= b.x && mouse.y >= std::min(a.y, b.y) - f.px(4) &&
                        mouse.y <= std::max(a.y, b.y))
                        d2 = 0;
                    break;
                }
            }
            if (hovered && d2 < best) best = d2, hit.series = static_cast<int>(si), hit.index = static_cast<int>(i);
        }
    }
    dl->PopClipRect();

    if (hit.index >= 0) {
        const PlotSeries& s = series[hit.series];
        char text[200];
        if (hit.index < static_cast<int>(s.names.size())) {
            std::snprintf(text, sizeof text, "%s: %s = %.4g", s.names[hit.index].c_str(), axes.y_label.c_str(),
                          s.y[hit.index]);
        } else {
            const std::string xs = hit.index < static_cast<int>(axes.x_names.size()) && s.x[hit.index] == hit.index
                                       ? axes.x_names[hit.index]
                                       : [&] {
                                             char b[32];
                                             std::snprintf(b, sizeof b, "%.4g", s.x[hit.index]);
                                             return std::string(b);
                                         }();
            std::snprintf(text, sizeof text, "%s%s%s = %s, %s = %.4g", s.label.c_str(), s.label.empty() ? "" : ": ",
                          axes.x_label.c_str(), xs.c_str(), axes.y_label.c_str(), s.y[hit.index]);
        }
        ImGui::SetTooltip("%s", text);
        hit.clicked = clicked;
    }
    ImGui::PopID();
    return hit;
}

}  // namespace ui
