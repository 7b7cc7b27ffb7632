// The photo with one map over it, rendered by the overlay shaders into a
// texture and shown as an ImGui item. It re-renders only when the map, the
// marks, the photo or the size changed, so a still window costs nothing.
#pragma once
#include <memory>

#include "frame.h"
#include "gfx/render_target.h"
#include "map_data.h"

namespace ui {

struct MapHit {
    bool hovered = false;       // the mouse is over the photo
    bool clicked = false;       // left button pressed on it this frame
    bool right_clicked = false;
    int token = -1;             // the patch token under the mouse; -1 outside the crop
    int row = -1, col = -1;
    ImVec2 min, max;            // where the photo was drawn, window coordinates
};

class MapView {
public:
    // Draws at the cursor, `size` in window coordinates (the caller keeps the
    // photo's aspect ratio). map may be null: the photo alone.
    MapHit show(const Frame& f, const char* id, const MapData* map, const gfx::Marks& marks, ImVec2 size);

private:
    void render(const Frame& f, const MapData* map, const gfx::Marks& marks, int w, int h);

    std::unique_ptr<gfx::RenderTarget> target_;
    gfx::GridTexture values_;
    // What the texture shows now.
    MapData shown_;
    bool shown_has_map_ = false;
    gfx::Marks shown_marks_;
    int shown_generation_ = -1;
    bool shown_has_trace_ = false;
};

// Marks for a query token and a key token (either may be a non-patch: no mark).
gfx::Marks marks_for(const vit::Trace& t, int query, int hovered, int pinned);

// The largest size with the photo's aspect ratio that fits in `avail`.
ImVec2 fit_photo(const session::AppState& s, ImVec2 avail);

}  // namespace ui
