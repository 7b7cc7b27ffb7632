// A row over all keys turned into what a map shows: the patch values on the
// grid, the prefix tokens' values (CLS, registers) that have no place on the
// photo, and the style that colours them. No GL here.
#pragma once
#include <vector>

#include "gfx/overlay_renderer.h"
#include "vit/forward/forward.h"

namespace ui {

struct MapData {
    int grid = 0;
    std::vector<float> patches;  // grid * grid, row-major from the top-left patch
    std::vector<float> prefix;   // tokens 0 .. prefix-1
    gfx::OverlayStyle style;
    float row_max = 0;  // largest patch value, what RowMax divides by
    bool same_as(const MapData& o) const;
};

// Non-negative weights (real or a what-if distribution), in the person's style.
MapData weights_map(const vit::Trace& t, const vit::Vec& row, const gfx::OverlayStyle& user);
// Signed values (raw or scaled scores, the no-softmax what-if): diverging
// colormap on a range symmetric around 0, so white means 0.
MapData signed_map(const vit::Trace& t, const vit::Vec& row, const gfx::OverlayStyle& user);

bool same_style(const gfx::OverlayStyle& a, const gfx::OverlayStyle& b);

}  // namespace ui
