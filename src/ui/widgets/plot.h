// One small plot widget for every Questions page, drawn with ImGui's draw
// lists (Debian's ImGui 1.86 has no plotting add-on): axes with round-numbered
// ticks, lines, dots and bars, a legend, and a read-out of the point under the
// mouse. It draws numbers it is given; it computes none.
#pragma once
#include <string>
#include <vector>

#include "ui/widgets/frame.h"

namespace ui {

struct PlotSeries {
    enum class Kind { Line, Dots, Bars };
    Kind kind = Kind::Line;
    std::string label;         // in the legend and the read-out; empty: not in the legend
    std::vector<double> x, y;  // same length
    ImVec4 color{0.9f, 0.9f, 0.9f, 1.f};
    int highlight = -1;                   // a point drawn larger and outlined (the selected head)
    float bar_width = 0.8f;               // Bars: in x units
    std::vector<std::string> names = {};  // optional, one per point: the read-out names the point ("layer 3, head 1")
};

struct PlotAxes {
    std::string x_label, y_label;
    // The ranges; when lo >= hi the data's own range (with 0 included for bars).
    double x_lo = 0, x_hi = 0, y_lo = 0, y_hi = 0;
    bool x_integer = false;            // ticks on whole numbers only (layers, bands)
    std::vector<std::string> x_names;  // names for x = 0, 1, ... instead of numbers (bands)
    // A shaded band from x = shade_lo to shade_hi behind the data, named at
    // its top (what a 3 x 3 convolution reaches); none when lo >= hi.
    double shade_lo = 0, shade_hi = 0;
    std::string shade_label;
};

struct PlotHit {
    int series = -1, index = -1;  // the point under the mouse, if any
    bool clicked = false;
    // Where the data landed: the plotting area and its ranges, window coordinates.
    ImVec2 area_min, area_max;
    double x_lo = 0, x_hi = 1, y_lo = 0, y_hi = 1;
    ImVec2 to_screen(double x, double y) const {
        return ImVec2(area_min.x + static_cast<float>((x - x_lo) / (x_hi - x_lo)) * (area_max.x - area_min.x),
                      area_max.y - static_cast<float>((y - y_lo) / (y_hi - y_lo)) * (area_max.y - area_min.y));
    }
};

PlotHit plot(const Frame& f, const char* id, ImVec2 size, const PlotAxes& axes, const std::vector<PlotSeries>& series);

}  // namespace ui
