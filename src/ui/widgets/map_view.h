// The photo with one map over it, rendered by the overlay shaders into a
// texture and shown as an ImGui item. It re-renders only when the map, the
// marks, the photo or the size changed, so a still window costs nothing.
#pragma once
#include <memory>

#include "gfx/render_target.h"
#include "ui/widgets/frame.h"
#include "ui/widgets/map_data.h"

namespace ui {

struct MapHit {
    bool hovered = false;  // the mouse is over the photo
    bool clicked = false;  // left button pressed on it this frame
    bool right_clicked = false;
    int token = -1;  // the patch token under the mouse; -1 outside the crop
    int row = -1, col = -1;
    ImVec2 min, max;  // where the photo was drawn, window coordinates
};

// The photo a map is drawn over: its texture, where the model's input square
// sits on it (photo pixels), and the trace whose grid the map has.
struct MapPhoto {
    const gfx::PhotoTexture* texture = nullptr;
    int generation = -1;  // changes whenever the texture's pixels do
    vit::CropRect crop;
    const vit::Trace* trace = nullptr;
};
// The open photo (what show() uses when given none), and the second photo.
MapPhoto loaded_photo(const Frame& f);
MapPhoto compared_photo(const Frame& f);

class MapView {
public:
    // Draws at the cursor, `size` in window coordinates (the caller keeps the
    // photo's aspect ratio). map may be null: the photo alone. photo: another
    // photo than the open one (the second photo, a rearranged input).
    MapHit show(const Frame& f, const char* id, const MapData* map, const gfx::Marks& marks, ImVec2 size,
                const MapPhoto* photo = nullptr);

private:
    void render(const Frame& f, const MapData* map, const gfx::Marks& marks, int w, int h, const MapPhoto& photo);

    std::unique_ptr<gfx::RenderTarget> target_;
    gfx::GridTexture values_;
    // What the texture shows now.
    MapData shown_;
    bool shown_has_map_ = false;
    gfx::Marks shown_marks_;
    int shown_generation_ = -1;
    GLuint shown_texture_ = 0;
    bool shown_has_trace_ = false;
};

// Marks for a query token and a key token (either may be a non-patch: no mark).
gfx::Marks marks_for(const vit::Trace& t, int query, int hovered, int pinned);

// The largest size with the photo's aspect ratio that fits in `avail`.
ImVec2 fit_photo(const session::AppState& s, ImVec2 avail);
// The same for any photo of width x height pixels.
ImVec2 fit_size(int width, int height, ImVec2 avail);

}  // namespace ui
