// GL resources the panels share: the overlay renderer, the photo texture (one
// upload per photo) and one small texture per colormap for the colour bars;
// and a tally of what the maps did in the frame being drawn.
#pragma once
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "gfx/overlay_renderer.h"
#include "gfx/render_target.h"
#include "session/state/app_state.h"

namespace ui {

// The maps over the open photo in one frame: how many were shown, how many
// rendered again, and how many showed an older photo or trace than the loaded
// one. --frame-stats reads it to find the first frame showing a new trace or query.
struct MapTally {
    int shown = 0, rendered = 0, behind = 0;
    // Each map shown (any photo): x, y, w, h, then its part inside the clip
    // it was drawn under (w, h 0 when none of it shows); the state file's maps_on_screen.
    std::vector<std::array<float, 8>> rects;
};

class GlCache {
public:
    // Needs the window's GL context current. A renderer that fails to build
    // (a shader missing or broken) leaves error() set; the window refuses to start.
    GlCache();
    ~GlCache();
    GlCache(const GlCache&) = delete;
    GlCache& operator=(const GlCache&) = delete;

    // Uploads the photo (and the second photo) when the loaded set changed.
    void sync(const session::AppState& s);

    gfx::OverlayRenderer* renderer() { return renderer_.get(); }
    bool has_photo() const { return photo_generation_ >= 0 && photo_.id() != 0; }
    const gfx::PhotoTexture& photo() const { return photo_; }
    int photo_generation() const { return photo_generation_; }
    // The second photo (File > Compare with…); id() 0 while there is none.
    const gfx::PhotoTexture& compare_photo() const { return compare_photo_; }
    int compare_generation() const { return compare_generation_; }
    // The colormap from t = 0 (left) to 1 (right), rendered once by the shaders.
    GLuint colormap_texture(gfx::Colormap c);
    const std::string& error() const { return error_; }
    // The window zeroes it before drawing a frame; MapView::show counts into it.
    MapTally& map_tally() { return tally_; }

private:
    std::unique_ptr<gfx::OverlayRenderer> renderer_;
    gfx::PhotoTexture photo_;
    int photo_generation_ = -1;
    gfx::PhotoTexture compare_photo_;
    int compare_generation_ = -1;
    std::array<std::unique_ptr<gfx::RenderTarget>, 4> bars_;
    std::string error_;
    MapTally tally_;
};

}  // namespace ui
