// Draws a photo with an attention (or score) map over the model's crop, the
// patch grid, and the selected/hovered patch outlines, with the shaders in
// shaders/. Used by the window (into framebuffer textures shown by ImGui) and
// by the offscreen figure export, so both show exactly the same pixels.
#pragma once
#include <vector>

#include "gfx/gl.h"

#include "gfx/overlay_style.h"
#include "gfx/photo_layers.h"
#include "gfx/render_target.h"
#include "gfx/textures.h"
#include "vit/image/image.h"
#include "vit/image/preprocess.h"

namespace gfx {

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
    // Sets its own program, VAO, texture units 0-2; disables blending and
    // depth test; leaves the scissor as it found it.
    void draw(const PhotoTexture& photo, const vit::CropRect& crop, const GridTexture* values,
              const OverlayStyle& style, const Marks& marks, const vit::CropRect* view = nullptr);
    // A colour bar of the style's colormap filling the current viewport: t = 0
    // at the left (bottom when vertical) to 1 at the right (top).
    void draw_colorbar(const OverlayStyle& style, bool vertical = false);

private:
    // A nearest map's colour and opacity per cell into cells_ (cells.frag).
    void draw_cells(const GridTexture& values, const OverlayStyle& style);

    // overlay.frag without and with its outlines (MARKS).
    struct MapPrograms {
        GLuint plain = 0, marks = 0;
    };
    MapPrograms nearest_, bilinear_;
    GLuint colorbar_program_ = 0, cells_program_ = 0, vao_ = 0;
    RenderTarget cells_{GL_RGBA32F};
    PhotoLayers layers_;
};

}  // namespace gfx
