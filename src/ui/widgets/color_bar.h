// A horizontal colour bar with tick labels in the map's own units (weights or
// scores), read off the same mapping the overlay shader applies.
#pragma once
#include "ui/widgets/frame.h"
#include "ui/widgets/map_data.h"

namespace ui {

// Draws at the cursor: the bar `width` wide, labels under it. `unit` names
// what the values are ("weight", "score").
void color_bar(const Frame& f, const MapData& map, float width, const char* unit);

// The height color_bar takes (item spacing not included).
float color_bar_height(const Frame& f);

}  // namespace ui
