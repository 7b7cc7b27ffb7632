#include "gfx/render_target.h"

#include <algorithm>
#include <string>

#include "vit/base/error.h"

namespace gfx {

void RenderTarget::resize(int width, int height) {
    GLint max_tex = 0, max_rb = 0, max_vp[2] = {0, 0};
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_tex);
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_rb);
    glGetIntegerv(GL_MAX_VIEWPORT_DIMS, max_vp);
    const int limit = std::min({max_tex, max_rb, max_vp[0], max_vp[1]});
    if (width <= 0 || height <= 0 || width > limit || height > limit)
        throw vit::Error("an image of " + std::to_string(width) + " x " + std::to_string(height) +
                         " pixels is beyond this GPU's limit of " + std::to_string(limit) + " per side");
    const Extent storage = storage_for({width, height}, capacity_);
    if (fbo_ && storage == capacity_) {
        w_ = width;
        h_ = height;
        return;
    }

    GLint previous = 0;
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previous);
    if (!tex_) glGenTextures(1, &tex_);
    if (!fbo_) glGenFramebuffers(1, &fbo_);
    glBindTexture(GL_TEXTURE_2D, tex_);
    glTexImage2D(GL_TEXTURE_2D, 0, format_, storage.w, storage.h, 0, GL_RGBA,
                 format_ == GL_RGBA32F ? GL_FLOAT : GL_UNSIGNED_BYTE, nullptr);
    capacity_ = storage;
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex_, 0);
    const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    glBindFramebuffer(GL_FRAMEBUFFER, previous);
    if (status != GL_FRAMEBUFFER_COMPLETE)
        throw vit::Error("offscreen framebuffer of " + std::to_string(width) + " x " + std::to_string(height) +
                         " is incomplete (status " + std::to_string(status) + ")");
    w_ = width;
    h_ = height;
}

void RenderTarget::set_filter(GLint filter) {
    filter_ = filter;
    if (!tex_) return;  // applied when the storage is made
    GLint previous = 0;
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &previous);
    glBindTexture(GL_TEXTURE_2D, tex_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter_);
    glBindTexture(GL_TEXTURE_2D, previous);
}

void RenderTarget::bind() const {
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glViewport(0, 0, w_, h_);
}

RgbaImage RenderTarget::read() const {
    RgbaImage img(w_, h_);
    while (glGetError() != GL_NO_ERROR) {
    }  // only errors from the read below count
    GLint previous = 0, pack = 4;
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previous);
    glGetIntegerv(GL_PACK_ALIGNMENT, &pack);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glReadPixels(0, 0, w_, h_, GL_RGBA, GL_UNSIGNED_BYTE, img.pixels.data());
    glPixelStorei(GL_PACK_ALIGNMENT, pack);
    glBindFramebuffer(GL_FRAMEBUFFER, previous);
    const size_t row = static_cast<size_t>(w_) * 4;
    for (int y = 0; y < h_ / 2; ++y)
        std::swap_ranges(img.pixels.begin() + y * row, img.pixels.begin() + (y + 1) * row,
                         img.pixels.begin() + (h_ - 1 - y) * row);
    if (glGetError() != GL_NO_ERROR) throw vit::Error("reading the offscreen image back failed");
    return img;
}

RenderTarget::~RenderTarget() {
    if (fbo_) glDeleteFramebuffers(1, &fbo_);
    if (tex_) glDeleteTextures(1, &tex_);
}

FramebufferScope::FramebufferScope() {
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &fbo_);
    glGetIntegerv(GL_VIEWPORT, viewport_);
    glGetFloatv(GL_COLOR_CLEAR_VALUE, clear_);
    glGetIntegerv(GL_CURRENT_PROGRAM, &program_);
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active_);
    glActiveTexture(GL_TEXTURE0);
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &texture_);
    scissor_ = glIsEnabled(GL_SCISSOR_TEST);
    blend_ = glIsEnabled(GL_BLEND);
}

FramebufferScope::~FramebufferScope() {
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glViewport(viewport_[0], viewport_[1], viewport_[2], viewport_[3]);
    glClearColor(clear_[0], clear_[1], clear_[2], clear_[3]);
    glUseProgram(program_);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, texture_);
    glActiveTexture(active_);
    if (scissor_) glEnable(GL_SCISSOR_TEST);
    else glDisable(GL_SCISSOR_TEST);
    if (blend_) glEnable(GL_BLEND);
    else glDisable(GL_BLEND);
}

ScissorScope::ScissorScope() {
    glGetIntegerv(GL_SCISSOR_BOX, box_);
    enabled_ = glIsEnabled(GL_SCISSOR_TEST);
    glEnable(GL_SCISSOR_TEST);
}

ScissorScope::~ScissorScope() {
    glScissor(box_[0], box_[1], box_[2], box_[3]);
    if (!enabled_) glDisable(GL_SCISSOR_TEST);
}

}  // namespace gfx
