#include "gfx/matrix_renderer.h"

#include "gfx/shader_program.h"
#include "vit/base/error.h"

namespace gfx {

MatrixRenderer::MatrixRenderer() {
    program_ = build_program("overlay.vert", "matrix.frag", {"colormaps.glsl"});
    glGenVertexArrays(1, &vao_);
}

MatrixRenderer::~MatrixRenderer() {
    glDeleteProgram(program_);
    glDeleteVertexArrays(1, &vao_);
}

void MatrixRenderer::draw(const GridTexture& weights, const vit::MatrixWindow& window, const MatrixStyle& style,
                          int width, int height) {
    if (!weights.id() || weights.grid() <= 0 || window.cells <= 0) throw vit::Error("matrix: no weights uploaded");
    glDisable(GL_BLEND);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glUseProgram(program_);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, weights.id());
    glUniform1i(loc(program_, "u_values"), 0);
    glUniform3i(loc(program_, "u_window"), window.first_row, window.first_col, window.cells);
    glUniform1i(loc(program_, "u_colormap"), static_cast<int>(style.colormap));
    glUniform1f(loc(program_, "u_top"), style.top > 0 ? style.top : 1.f);
    glUniform1i(loc(program_, "u_prefix"), style.prefix);
    glUniform1i(loc(program_, "u_selected"), style.selected);
    glUniform1f(loc(program_, "u_line_px"), style.line_px);
    glUniform2f(loc(program_, "u_size"), static_cast<float>(width), static_cast<float>(height));
    glBindVertexArray(vao_);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
}

}  // namespace gfx
