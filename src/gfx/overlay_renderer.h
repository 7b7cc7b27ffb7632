// Draws a photo with an attention (or score) map over the model's crop, the
// patch grid, and the selected/hovered patch outlines, with the shaders in
// shaders/. Used by the window (into framebuffer textures shown by ImGui) and
// by the offscreen figure export, so both show exactly the same pixels.
#pragma once
#include <vector>

#include <epoxy/gl.h>

#include "vit/image.h"
#include "vit/preprocess.h"

namespace gfx {

enum class Colormap { Viridis, Magma, Turbo, Diverging };   // Diverging: blue-white-red, for raw scores
enum class Normalization { RowMax, Absolute, Log };          // map value -> [0,1] before the colormap

struct OverlayStyle {
    Colormap colormap = Colormap::Viridis;
    Normalization normalization = Normalization::RowMax;
    float opacity = 0.6f;
    bool bilinear = false;        // nearest shows patches as they are; bilinear smooths
    bool show_grid = true;
    float value_min = 0.f;        // the range the colormap spans (after normalisation choice)
    float value_max = 1.f;
};

// What to highlight, in patch-grid coordinates; -1 = none.
struct Marks {
    int selected_row = -1, selected_col = -1;
    int hover_row = -1, hover_col = -1;
    int pinned_row = -1, pinned_col = -1;
};

class PhotoTexture {
public:
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
    void upload(const std::vector<float>& values, int grid);
    GLuint id() const { return tex_; }
    int grid() const { return grid_; }
    ~GridTexture();
private:
    GLuint tex_ = 0;
    int grid_ = 0;
};

class OverlayRenderer {
public:
    // Compiles shaders/overlay.vert + overlay.frag; throws vit::Error on failure.
    OverlayRenderer();
    ~OverlayRenderer();
    // Draws into the bound framebuffer's current viewport: the whole photo
    // stretched to the viewport (the caller keeps the aspect ratio), the map
    // over crop (in photo pixels), the grid and marks. values may be null
    // (photo and grid only).
    void draw(const PhotoTexture& photo, const vit::CropRect& crop, const GridTexture* values,
              const OverlayStyle& style, const Marks& marks);
    // A horizontal colour bar of the style's colormap into the current viewport.
    void draw_colorbar(const OverlayStyle& style);
private:
    GLuint program_ = 0, colorbar_program_ = 0, vao_ = 0;
};

}  // namespace gfx
