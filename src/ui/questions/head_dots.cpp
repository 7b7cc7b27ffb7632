#include "ui/questions/head_dots.h"

#include "ui/widgets/plot.h"
#include "ui/widgets/theme.h"

namespace ui {

double head_dot_x(int layer, int head, int heads) { return layer + 0.12 * (head - 0.5 * (heads - 1)); }

bool head_dots(const Frame& f, const char* id, ImVec2 size, const char* y_label,
               const std::vector<std::vector<double>>& values, int ring_layer, int ring_head) {
    PlotSeries dots{PlotSeries::Kind::Dots, "", {}, {}, colors::accent};
    const int layers = static_cast<int>(values.size());
    const int heads = layers ? static_cast<int>(values[0].size()) : 0;
    for (int l = 0; l < layers; ++l)
        for (int h = 0; h < heads; ++h) {
            if (l == ring_layer && h == ring_head) dots.highlight = static_cast<int>(dots.x.size());
            dots.x.push_back(head_dot_x(l, h, heads));
            dots.y.push_back(values[l][h]);
        }
    PlotAxes axes;
    axes.x_label = "layer";
    axes.y_label = y_label;
    axes.y_lo = 0, axes.y_hi = 1;
    axes.x_integer = true;
    axes.x_lo = -0.5, axes.x_hi = layers - 0.5;
    const PlotHit hit = plot(f, id, size, axes, {dots});
    if (!hit.clicked || hit.index < 0) return false;
    f.emit(session::act::SetLayer{hit.index / heads});
    f.emit(session::act::SetHead{hit.index % heads});
    return true;
}

}  // namespace ui
