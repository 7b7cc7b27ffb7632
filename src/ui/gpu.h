// GL resources the panels share: the overlay renderer, the photo texture (one
// upload per photo) and one small texture per colormap for the colour bars.
#pragma once
#include <array>
#include <memory>
#include <string>

#include "session/state.h"
#include "gfx/overlay_renderer.h"
#include "gfx/render_target.h"

namespace ui {

class Gpu {
public:
    // Needs the window's GL context current. A renderer that fails to build
    // (shaders missing) leaves error() set; the window shows it and runs on.
    Gpu();
    ~Gpu();
    Gpu(const Gpu&) = delete;
    Gpu& operator=(const Gpu&) = delete;

    // Uploads the photo when the loaded set changed.
    void sync(const session::AppState& s);

    gfx::OverlayRenderer* renderer() { return renderer_.get(); }
    bool has_photo() const { return photo_generation_ >= 0 && photo_.id() != 0; }
    const gfx::PhotoTexture& photo() const { return photo_; }
    int photo_generation() const { return photo_generation_; }
    // The colormap from t = 0 (left) to 1 (right), rendered once by the shaders.
    GLuint colormap_texture(gfx::Colormap c);
    const std::string& error() const { return error_; }

private:
    std::unique_ptr<gfx::OverlayRenderer> renderer_;
    gfx::PhotoTexture photo_;
    int photo_generation_ = -1;
    std::array<std::unique_ptr<gfx::RenderTarget>, 4> bars_;
    std::string error_;
};

}  // namespace ui
