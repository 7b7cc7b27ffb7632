#include "ui/widgets/map_data.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace ui {
namespace {

MapData split(const vit::Trace& t, const vit::Vec& row) {
    MapData m;
    m.grid = t.grid;
    m.prefix.assign(row.data(), row.data() + t.prefix);
    m.patches.assign(row.data() + t.prefix, row.data() + t.tokens);
    m.row_max = m.patches.empty() ? 0.f : *std::max_element(m.patches.begin(), m.patches.end());
    return m;
}

}  // namespace

bool same_style(const gfx::OverlayStyle& a, const gfx::OverlayStyle& b) {
    return a.colormap == b.colormap && a.normalization == b.normalization && a.opacity == b.opacity &&
           a.fade == b.fade && a.bilinear == b.bilinear && a.show_grid == b.show_grid && a.value_min == b.value_min &&
           a.value_max == b.value_max && a.dim_outside == b.dim_outside && a.line_width == b.line_width &&
           std::equal(a.background, a.background + 3, b.background);
}

bool MapData::same_as(const MapData& o) const {
    return grid == o.grid && patches == o.patches && same_style(style, o.style);
}

MapData weights_map(const vit::Trace& t, const vit::Vec& row, const gfx::OverlayStyle& user) {
    MapData m = split(t, row);
    m.style = user;
    if (m.style.colormap == gfx::Colormap::Diverging) m.style.colormap = gfx::Colormap::Viridis;
    // Absolute shows weights on their own 0..1 scale; the others span the map.
    m.style.value_min = 0.f;
    m.style.value_max = 1.f;
    return m;
}

MapData signed_map(const vit::Trace& t, const vit::Vec& row, const gfx::OverlayStyle& user) {
    MapData m = split(t, row);
    m.style = user;
    m.style.colormap = gfx::Colormap::Diverging;
    m.style.normalization = gfx::Normalization::Absolute;
    float extent = 0.f;
    for (float v : m.patches) extent = std::max(extent, std::abs(v));
    if (extent == 0.f) extent = 1.f;
    m.style.value_min = -extent;
    m.style.value_max = extent;
    return m;
}

}  // namespace ui
