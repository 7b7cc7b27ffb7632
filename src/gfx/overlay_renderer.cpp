#include "gfx/overlay_renderer.h"

#include <string>
#include <vector>

#include "gfx/mark_box.h"
#include "gfx/shader_program.h"
#include "vit/base/error.h"

namespace gfx {
namespace {

// map_colour.glsl's uniforms.
void set_colour_uniforms(GLuint program, const OverlayStyle& style, float row_max) {
    glUniform1i(loc(program, "u_colormap"), static_cast<int>(style.colormap));
    glUniform1i(loc(program, "u_normalization"), static_cast<int>(style.normalization));
    glUniform1f(loc(program, "u_row_max"), row_max);
    glUniform2f(loc(program, "u_range"), style.value_min, style.value_max);
    glUniform1f(loc(program, "u_opacity"), style.opacity);
    glUniform1i(loc(program, "u_fade"), style.fade);
}

}  // namespace

OverlayRenderer::OverlayRenderer() {
    const std::vector<std::string> map_includes{"colormaps.glsl", "map_colour.glsl"};
    std::vector<GLuint*> made;
    auto build = [&](GLuint& program, const char* frag, std::vector<std::string> includes,
                     std::vector<std::string> defines = {}) {
        program = build_program("overlay.vert", frag, includes, defines);
        made.push_back(&program);
    };
    try {
        build(nearest_.plain, "overlay.frag", map_includes);
        build(nearest_.marks, "overlay.frag", map_includes, {"MARKS"});
        build(bilinear_.plain, "overlay.frag", map_includes, {"BILINEAR_MAP"});
        build(bilinear_.marks, "overlay.frag", map_includes, {"BILINEAR_MAP", "MARKS"});
        build(cells_program_, "cells.frag", map_includes);
        build(colorbar_program_, "colorbar.frag", {"colormaps.glsl"});
    } catch (...) {
        for (GLuint* p : made) glDeleteProgram(*p);
        throw;
    }
    glGenVertexArrays(1, &vao_);  // core profile draws need a VAO, even an empty one
}

OverlayRenderer::~OverlayRenderer() {
    for (GLuint p :
         {nearest_.plain, nearest_.marks, bilinear_.plain, bilinear_.marks, cells_program_, colorbar_program_})
        glDeleteProgram(p);
    glDeleteVertexArrays(1, &vao_);
}

void OverlayRenderer::draw_cells(const GridTexture& values, const OverlayStyle& style) {
    FramebufferScope caller;  // its framebuffer, viewport, scissor and blending come back afterwards
    cells_.resize(values.grid(), values.grid());
    cells_.bind();
    glDisable(GL_SCISSOR_TEST);
    glUseProgram(cells_program_);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, values.id());
    glActiveTexture(GL_TEXTURE0);
    glUniform1i(loc(cells_program_, "u_values"), 1);
    set_colour_uniforms(cells_program_, style, values.max_value());
    glBindVertexArray(vao_);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
}

void OverlayRenderer::draw(const PhotoTexture& photo, const vit::CropRect& crop, const GridTexture* values,
                           const OverlayStyle& style, const Marks& marks, const vit::CropRect* view) {
    if (!photo.id() || photo.width() <= 0) throw vit::Error("overlay: no photo uploaded");
    const bool has_values = values && values->id() && values->grid() > 0;
    const bool per_cell = has_values && !style.bilinear;
    const vit::CropRect whole{0, 0, static_cast<double>(photo.width()), static_cast<double>(photo.height())};
    const vit::CropRect& v = view ? *view : whole;
    Viewport vp;
    glGetIntegerv(GL_VIEWPORT, vp.box);
    const RenderTarget& layer = layers_.get(photo, crop, v, vp.box[2], vp.box[3], style);
    if (per_cell) draw_cells(*values, style);

    glDisable(GL_BLEND);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, layer.texture());
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, has_values ? values->id() : 0);
    glActiveTexture(GL_TEXTURE2);
    glBindTexture(GL_TEXTURE_2D, per_cell ? cells_.texture() : 0);
    glActiveTexture(GL_TEXTURE0);
    const int grid = has_values ? values->grid() : 1;
    auto set_uniforms = [&](GLuint program) {
        glUseProgram(program);
        glUniform1i(loc(program, "u_photo_layer"), 0);
        glUniform2i(loc(program, "u_viewport_origin"), vp.box[0], vp.box[1]);
        glUniform1i(loc(program, "u_values"), 1);
        glUniform1i(loc(program, "u_cells"), 2);
        glUniform1i(loc(program, "u_has_values"), has_values);
        glUniform1i(loc(program, "u_grid"), grid);
        set_photo_rect(program, "u_view", v, photo);
        set_photo_rect(program, "u_crop", crop, photo);
        set_colour_uniforms(program, style, has_values ? values->max_value() : 0.f);
        glUniform1i(loc(program, "u_show_grid"), style.show_grid && has_values);
        glUniform1f(loc(program, "u_line_px"), style.line_width);
    };
    const MapPrograms& programs = style.bilinear ? bilinear_ : nearest_;
    glBindVertexArray(vao_);
    set_uniforms(programs.plain);
    glDrawArrays(GL_TRIANGLES, 0, 3);

    // Outlines: the whole pixel again, outlines included, only around each marked cell.
    // Marks are patch coordinates: without a grid they have nothing to refer to.
    const Marks m = has_values ? marks : Marks{};
    std::vector<ScissorBox> boxes;
    const MarkGeometry geometry{crop, v, grid, vp, style.line_width};
    for (const auto& [row, col] :
         {std::pair{m.pinned_row, m.pinned_col}, {m.hover_row, m.hover_col}, {m.selected_row, m.selected_col}})
        if (auto box = mark_box(geometry, row, col)) boxes.push_back(*box);
    if (!boxes.empty()) {
        set_uniforms(programs.marks);
        glUniform2i(loc(programs.marks, "u_selected"), m.selected_row, m.selected_col);
        glUniform2i(loc(programs.marks, "u_hover"), m.hover_row, m.hover_col);
        glUniform2i(loc(programs.marks, "u_pinned"), m.pinned_row, m.pinned_col);
        ScissorScope scissor;
        for (const ScissorBox& b : boxes) {
            glScissor(b.x, b.y, b.w, b.h);
            glDrawArrays(GL_TRIANGLES, 0, 3);
        }
    }
    glBindVertexArray(0);
    // cells_ is drawn into before the next map: not left bound for sampling meanwhile.
    glActiveTexture(GL_TEXTURE2);
    glBindTexture(GL_TEXTURE_2D, 0);
    glActiveTexture(GL_TEXTURE0);
}

void OverlayRenderer::draw_colorbar(const OverlayStyle& style, bool vertical) {
    glDisable(GL_BLEND);
    glDisable(GL_DEPTH_TEST);
    glUseProgram(colorbar_program_);
    glUniform1i(loc(colorbar_program_, "u_colormap"), static_cast<int>(style.colormap));
    glUniform1i(loc(colorbar_program_, "u_vertical"), vertical);
    glBindVertexArray(vao_);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
}

}  // namespace gfx
