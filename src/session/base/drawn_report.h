// What a frame drew where, for tests: the points a test clicks, the
// rectangles it measures, the texts a reader could not read whole, and (for
// figures) the cells coloured from numbers. Not the application's state: the
// window owns one report, clears it before each frame, panels fill it while
// they draw, and the state file writes the last whole frame's.
#pragma once
#include <array>
#include <string>
#include <utility>
#include <vector>

namespace session {

// A named point that does something when clicked ("L3 H1": the dot of layer
// 3, head 1), in window coordinates (logical pixels).
struct PageTarget {
    std::string name;
    float x = 0, y = 0;
    bool operator==(const PageTarget& o) const { return name == o.name && x == o.x && y == o.y; }
};

// A block of `maps` x `maps` small maps, each `grid` x `grid` square cells:
// small map (mr, mc)'s cell (r, c) covers
//   x = x0 + mc * step + c * cell .. + cell,  y = y0 + mr * step + r * cell .. + cell
// in the figure's logical pixels (the PNG's pixels are these times its density).
// One map alone is maps = 1. A strip of cells (a vector, vector_strip.h) is
// rows = 1 of `grid` cells `cell` wide and cell_h tall; rows = 0 and
// cell_h = 0 mean square cells, `grid` rows.
struct DrawnCells {
    std::string name;  // "position/small_maps"
    float x0 = 0, y0 = 0, cell = 0, step = 0;
    int grid = 0, maps = 1;
    int rows = 0;
    float cell_h = 0;
};

struct DrawnReport {
    std::array<float, 4> image_view = {};           // the photo (not the panel): x, y, w, h
    std::vector<std::array<float, 4>> head_thumbs;  // the heads strip's thumbnails (the mean last)
    std::vector<std::array<float, 4>>
        layer_grid;                        // the layers x heads grid's cells: layer by layer, its heads then its mean
    std::vector<PageTarget> page_targets;  // points a page can be clicked on (the heads page's dots)
    std::vector<PageTarget> tour_offer_buttons;  // the first run's offer: its two buttons
    std::vector<PageTarget> predict_buttons;     // classroom mode's Predict / Reveal / ... buttons
    std::vector<PageTarget> replace_buttons;     // the replace question's "replace" and "keep" buttons
    std::vector<PageTarget> page_export_button;  // the Questions page's Export figure button
    std::vector<PageTarget> lab_open;  // the lab's "Open a run": "run:NAME" per listed run, "path", "open", "browse"
    std::vector<float> tour_card;      // the tour's card: x, y, w, h; empty when none
    std::vector<float> tour_key;       // its key sentence's lines: x, y, w, h; empty when none
    // Every map over a photo drawn this frame: x, y, w, h, then the part of
    // it on the screen (inside its panel's clip): x, y, w, h (w, h 0: none).
    std::vector<std::array<float, 8>> maps;
    // The Questions page's first figure (plot, table, map or picture): its kind, and
    // x, y, w, h then its part inside the page's visible area (as maps); empty: none.
    std::string page_figure_kind;
    std::vector<float> page_figure;
    std::vector<std::array<float, 4>> lab_maps;  // the Learning lab's head maps: x, y, w, h each
    // The live exercise's buttons and field: name, then x, y, w, h of its part on the screen.
    std::vector<std::pair<std::string, std::array<float, 4>>> exercise_targets;
    // The texts a reader could not read whole ("why · window · text"): cut by
    // their window, column or cell, or broken inside a word; and the bytes of
    // the longest text one item drew (ui/widgets/clip_audit.h).
    std::vector<std::string> clipped_text;
    size_t longest_text = 0;
    // Cells coloured from numbers, recorded only when `record_cells` (a figure
    // a test samples, page_figure.h); the window draws without.
    bool record_cells = false;
    std::vector<DrawnCells> cells;

    void add_cells(DrawnCells c) {
        if (record_cells) cells.push_back(std::move(c));
    }
};

}  // namespace session
