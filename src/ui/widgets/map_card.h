// A map as the Questions pages show them side by side: a caption wrapped in
// the map's width and as tall as the row's tallest (so the maps line up), the
// photo with the map, its colour bar. The caller handles hover and clicks.
#pragma once
#include <initializer_list>

#include "ui/widgets/frame.h"
#include "ui/widgets/map_view.h"
#include "ui/widgets/theme.h"
#include "vit/analysis/patch_permutation.h"

namespace ui {

// The height of the tallest of `texts` wrapped in `width`.
float caption_height(std::initializer_list<const char*> texts, float width);

struct MapCaption {
    const char* text = "";
    float height = 0;                // caption_height() of the row
    ImVec4 colour = colors::strong;  // the theme on show
};

// Draws the card at the cursor as one group; photo: null for the open photo.
// unit names the colour bar's values ("weight").
MapHit map_card(const Frame& f, MapView& view, const char* id, const MapCaption& caption, const MapData& map,
                const gfx::Marks& marks, ImVec2 size, const MapPhoto* photo, const char* unit);

// Hover on a map of `row` over the trace's patches: names the patch and its
// value, reports it as hovered; a click makes it the query when `clickable`.
// `original` maps the patch under the mouse to the token it stands for
// (a rearranged input: whose content is there); null when it is itself.
void weight_hover(const Frame& f, const MapHit& hit, const vit::Trace& t, const vit::Vec& row, const char* value_name,
                  bool clickable, const vit::Trace* original = nullptr, const vit::PatchPermutation* back = nullptr);

}  // namespace ui
