// The layer slider, one thumbnail per head of the current layer (click shows
// or hides a head), the mean of the visible heads, and a layers x heads grid
// of the same query.
#pragma once
#include <vector>

#include "ui/widgets/frame.h"
#include "ui/widgets/map_view.h"

namespace ui {

class HeadsPanel {
public:
    void draw(const Frame& f);

private:
    void layer_slider(const Frame& f);
    void head_strip(const Frame& f);
    void layer_grid(const Frame& f);

    std::vector<MapView> heads_;
    MapView mean_;
    std::vector<MapView> grid_;  // layer-major, heads + 1 (mean) per layer
};

}  // namespace ui
