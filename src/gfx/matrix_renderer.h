// Draws one head's whole N x N attention matrix (shaders/matrix.frag) from a
// float texture of its weights: the Questions tab's matrix page, on screen and
// in its exported figure.
#pragma once
#include <vector>

#include "gfx/gl.h"

#include "gfx/overlay_style.h"
#include "gfx/textures.h"
#include "vit/analysis/attention_matrix.h"

namespace gfx {

struct MatrixStyle {
    Colormap colormap = Colormap::Viridis;
    float top = 1;      // the largest weight: the log scale's top
    int prefix = 1;     // CLS (+ distillation) + registers
    int selected = -1;  // the selected query's row
    float line_px = 1;
};

class MatrixRenderer {
public:
    // Compiles overlay.vert + matrix.frag; throws vit::Error on failure.
    MatrixRenderer();
    ~MatrixRenderer();
    MatrixRenderer(const MatrixRenderer&) = delete;
    MatrixRenderer& operator=(const MatrixRenderer&) = delete;
    // Into the bound framebuffer's viewport (its size in pixels: width x height).
    // weights: a GridTexture of the N x N matrix, row-major (rows = queries).
    void draw(const GridTexture& weights, const vit::MatrixWindow& window, const MatrixStyle& style, int width,
              int height);

private:
    GLuint program_ = 0, vao_ = 0;
};

}  // namespace gfx
