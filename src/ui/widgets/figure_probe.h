// Where a page's first figure landed. Plots, tables, maps and pictures report
// themselves here as they are drawn; while a FigureProbe lives, the first of
// them is kept, with the part of it inside the clip it was drawn under (the
// panel's visible area). The Questions tab reports it in the state file, so a
// test can tell whether a page leads with its figure above the fold.
#pragma once
#include <array>
#include <string>

#include <imgui.h>

namespace ui {

struct DrawnFigure {
    std::string kind;                // "plot", "table", "map" or "picture"
    std::array<float, 8> rect = {};  // x, y, w, h, then its part inside the clip: x, y, w, h (w, h 0: none)
};

class FigureProbe {
public:
    FigureProbe();
    ~FigureProbe();
    FigureProbe(const FigureProbe&) = delete;
    FigureProbe& operator=(const FigureProbe&) = delete;
    // The first figure drawn since the probe was made; kind empty: none.
    const DrawnFigure& first() const { return first_; }

private:
    friend void report_figure(const char* kind, ImVec2 min, ImVec2 max);
    DrawnFigure first_;
    FigureProbe* outer_;
};

// A figure drawn into the current window from min to max (screen coordinates).
void report_figure(const char* kind, ImVec2 min, ImVec2 max);

// ImGui::EndTable for a table of numbers, reporting it as a figure.
void end_figure_table();

}  // namespace ui
