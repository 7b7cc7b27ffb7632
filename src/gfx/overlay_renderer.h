// Draws a photo with an attention (or score) map over the model's crop, the
// patch grid, and the selected/hovered patch outlines, with the shaders in
// shaders/. Used by the window (into framebuffer textures shown by ImGui) and
// by the offscreen figure export, so both show exactly the same pixels.
#pragma once
#include <vector>

#include <epoxy/gl.h>

#include "overlay_style.h"
#include "vit/image.h"
#include "vit/preprocess.h"

namespace gfx {

// GL objects below need a current context for every call, the destructor included.
class PhotoTexture {
public:
    PhotoTexture() = default;
    PhotoTexture(const PhotoTexture&) = delete;             // owns a GL name: move, never copy
    PhotoTexture& operator=(const PhotoTexture&) = delete;
    PhotoTexture(PhotoTexture&& other) noexcept;
    PhotoTexture& operator=(PhotoTexture&& other) noexcept;
    // Photos larger than GL_MAX_TEXTURE_SIZE are box-filtered down to fit;
    // width()/height() stay the photo's own, which crop rectangles refer to.
    void upload(const vit::Image& image);
    GLuint id() const { return tex_; }
    int width() const { return w_; }
    int height() const { return h_; }
    ~PhotoTexture();
private:
    GLuint tex_ = 0;
    int w_ = 0, h_ = 0;
};

// grid x grid float values (row-major from the top-left patch), R32F.
class GridTexture {
public:
    GridTexture() = default;
    GridTexture(const GridTexture&) = delete;
    GridTexture& operator=(const GridTexture&) = delete;
    GridTexture(GridTexture&& other) noexcept;
    GridTexture& operator=(GridTexture&& other) noexcept;
    void upload(const std::vector<float>& values, int grid);  // values.size() must be grid*grid
    GLuint id() const { return tex_; }
    int grid() const { return grid_; }
    float min_value() const { return min_; }   // of the finite values uploaded
    float max_value() const { return max_; }
    ~GridTexture();
private:
    GLuint tex_ = 0;
    int grid_ = 0;
    float min_ = 0.f, max_ = 0.f;
};

class OverlayRenderer {
public:
    // Compiles shaders/overlay.vert + overlay.frag; throws vit::Error on failure.
    OverlayRenderer();
    ~OverlayRenderer();
    OverlayRenderer(const OverlayRenderer&) = delete;
    OverlayRenderer& operator=(const OverlayRenderer&) = delete;
    // Draws into the bound framebuffer's current viewport: the whole photo
    // stretched to the viewport (the caller keeps the aspect ratio), the map
    // over crop (in photo pixels), the grid and marks. values may be null
    // (photo and dimmed surround only: no grid, no marks). view, when given,
    // is the part of the photo (in photo pixels) that fills the viewport
    // instead, for zoom and pan; it may reach beyond the photo (drawn as
    // style.background).
    // Sets its own program, VAO, texture units 0-1; disables blending and depth test.
    void draw(const PhotoTexture& photo, const vit::CropRect& crop, const GridTexture* values,
              const OverlayStyle& style, const Marks& marks, const vit::CropRect* view = nullptr);
    // A colour bar of the style's colormap filling the current viewport: t = 0
    // at the left (bottom when vertical) to 1 at the right (top).
    void draw_colorbar(const OverlayStyle& style, bool vertical = false);
private:
    GLuint program_ = 0, colorbar_program_ = 0, vao_ = 0;
};

}  // namespace gfx
