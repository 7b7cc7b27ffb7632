// An offscreen framebuffer with an RGBA8 colour texture: the figure export
// renders into one and reads it back; the window can show its texture. (Or
// with an RGBA32F one, for values other shaders read: never read back.)
// Its storage is kept while the size asked for fits (storage_size.h) and is
// used from the bottom-left corner: a map is resized for every photo's aspect.
#pragma once
#include <utility>

#include "gfx/gl.h"

#include "gfx/storage_size.h"

#include "gfx/rgba_image.h"

namespace gfx {

class RenderTarget {
public:
    RenderTarget() = default;
    RenderTarget(int width, int height) { resize(width, height); }
    // GL_RGBA8 or GL_RGBA32F; the storage is made on the first resize.
    explicit RenderTarget(GLenum internal_format) : format_(internal_format) {}
    ~RenderTarget();
    RenderTarget(const RenderTarget&) = delete;
    RenderTarget& operator=(const RenderTarget&) = delete;
    RenderTarget(RenderTarget&& other) noexcept { *this = std::move(other); }
    RenderTarget& operator=(RenderTarget&& other) noexcept {
        std::swap(fbo_, other.fbo_);  // other's destructor frees what this held
        std::swap(tex_, other.tex_);
        std::swap(w_, other.w_);
        std::swap(h_, other.h_);
        std::swap(capacity_, other.capacity_);
        std::swap(format_, other.format_);
        std::swap(filter_, other.filter_);
        return *this;
    }

    // Sets the size in use, allocating only when it does not fit (or would
    // use under a quarter of the storage); throws vit::Error when the size is
    // beyond the GPU's limits.
    void resize(int width, int height);
    // How the texture is sampled: GL_LINEAR (the default), or GL_NEAREST for
    // a picture shown one texel per pixel. Kept when the storage is remade.
    void set_filter(GLint filter);
    // Binds the framebuffer for drawing and sets the viewport to the size in use.
    void bind() const;
    // The pixels, rows from the top (GL's rows run from the bottom).
    RgbaImage read() const;

    GLuint texture() const { return tex_; }
    GLuint framebuffer() const { return fbo_; }
    int width() const { return w_; }
    int height() const { return h_; }
    // The share of the texture in use, for texture coordinates: (0,0) to (u_max, v_max).
    float u_max() const { return capacity_.w > 0 ? static_cast<float>(w_) / capacity_.w : 1.f; }
    float v_max() const { return capacity_.h > 0 ? static_cast<float>(h_) / capacity_.h : 1.f; }

private:
    GLuint fbo_ = 0, tex_ = 0;
    int w_ = 0, h_ = 0;
    Extent capacity_;  // the GL storage's size
    GLenum format_ = GL_RGBA8;
    GLint filter_ = GL_LINEAR;
};

// Restores the framebuffer binding, viewport, clear colour, program, texture
// unit 0 and the scissor and blend switches on scope exit, so drawing offscreen from inside
// the window's frame leaves the window's state alone.
class FramebufferScope {
public:
    FramebufferScope();
    ~FramebufferScope();
    FramebufferScope(const FramebufferScope&) = delete;
    FramebufferScope& operator=(const FramebufferScope&) = delete;

private:
    GLint fbo_ = 0, viewport_[4] = {0, 0, 0, 0}, program_ = 0, texture_ = 0, active_ = 0;
    GLfloat clear_[4] = {0, 0, 0, 0};
    GLboolean scissor_ = GL_FALSE, blend_ = GL_FALSE;
};

// Switches the scissor test on for the scope and then back to the box and
// switch it found.
class ScissorScope {
public:
    ScissorScope();
    ~ScissorScope();
    ScissorScope(const ScissorScope&) = delete;
    ScissorScope& operator=(const ScissorScope&) = delete;

private:
    GLint box_[4] = {0, 0, 0, 0};
    GLboolean enabled_ = GL_FALSE;
};

}  // namespace gfx
