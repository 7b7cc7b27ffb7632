// How a weight map is drawn: colormap, normalisation, opacity, grid, and the
// patches to outline. Plain data with no GL, so the session layer can hold and
// save a style without linking the renderer.
#pragma once

namespace gfx {

enum class Colormap { Viridis, Magma, Turbo, Diverging };  // Diverging: blue-white-red, for raw scores
enum class Normalization { RowMax, Absolute, Log };        // map value -> [0,1] before the colormap

// How a grid value v becomes a colormap position t in [0, 1]:
//   RowMax:   n = v / max            (max = the largest value on the grid)
//   Absolute: n = v
//   Log:      n = log10(v / (max * 1e-3)) / 3, i.e. three decades below max (smaller clamps to 0)
//   then t = (n - value_min) / (value_max - value_min), clamped.
// So with the defaults [0, 1], RowMax and Log span the whole map, and Absolute
// shows attention weights on their own 0..1 scale. Raw scores: Diverging with
// Absolute and a range symmetric around 0.
struct OverlayStyle {
    Colormap colormap = Colormap::Viridis;
    Normalization normalization = Normalization::RowMax;
    float opacity = 0.7f;
    // Opacity follows the map: weak patches leave the photo as it is, so what
    // the head attends to stands out (diverging maps fade towards 0).
    bool fade = true;
    bool bilinear = false;  // nearest shows patches as they are; bilinear smooths
    bool show_grid = true;
    float value_min = 0.f;  // the range the colormap spans (after normalisation choice)
    float value_max = 1.f;
    float dim_outside = 0.45f;                    // brightness of the photo outside the model's crop
    float line_width = 1.f;                       // grid line width in pixels; outlines scale with it
    float background[3] = {0.12f, 0.12f, 0.12f};  // where the view goes beyond the photo
    bool operator==(const OverlayStyle&) const = default;
};

// What to highlight, in patch-grid coordinates; -1 = none.
struct Marks {
    int selected_row = -1, selected_col = -1;
    int hover_row = -1, hover_col = -1;
    int pinned_row = -1, pinned_col = -1;
};

}  // namespace gfx
