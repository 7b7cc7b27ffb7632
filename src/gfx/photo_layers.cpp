#include "gfx/photo_layers.h"

#include <algorithm>

#include "gfx/shader_program.h"

namespace gfx {
namespace {

// Enough for the sizes one window or figure shows at once (a window: the
// large map, the heads' row, the layers' column, the page's thumbnails);
// the pixel budget keeps a large export's layer from staying behind (64 MB).
constexpr size_t kMaxLayers = 8;
constexpr int64_t kMaxPixels = 16 << 20;

int64_t pixels(const RenderTarget& t) { return static_cast<int64_t>(t.width()) * t.height(); }

}  // namespace

void set_photo_rect(GLuint program, const char* name, const vit::CropRect& rect, const PhotoTexture& photo) {
    const float pw = static_cast<float>(photo.width()), ph = static_cast<float>(photo.height());
    glUniform4f(loc(program, name), rect.x / pw, rect.y / ph, (rect.x + rect.w) / pw, (rect.y + rect.h) / ph);
}

PhotoLayers::PhotoLayers() {
    program_ = build_program("overlay.vert", "photo_layer.frag");
    glGenVertexArrays(1, &vao_);
}

PhotoLayers::~PhotoLayers() {
    glDeleteProgram(program_);
    glDeleteVertexArrays(1, &vao_);
}

const RenderTarget& PhotoLayers::get(const PhotoTexture& photo, const vit::CropRect& crop, const vit::CropRect& view,
                                     int width, int height, const OverlayStyle& style) {
    const Key key{photo.id(),
                  crop,
                  view,
                  width,
                  height,
                  style.dim_outside,
                  {style.background[0], style.background[1], style.background[2]}};
    Layer& layer = slot_for(key);
    layer.last_used = ++uses_;
    if (layer.photo_version != photo.version()) {
        draw(photo, key, layer.target);
        layer.photo_version = photo.version();
    }
    return layer.target;
}

// The layer kept for key, else a new one, else the least recently used
// one's storage (a new photo's layers reuse the last one's: allocating a
// target cost llvmpipe more than drawing it).
PhotoLayers::Layer& PhotoLayers::slot_for(const Key& key) {
    for (Layer& l : layers_)
        if (l.key == key) return l;
    auto least_recent = [this] {
        return std::min_element(layers_.begin(), layers_.end(),
                                [](const Layer& a, const Layer& b) { return a.last_used < b.last_used; });
    };
    auto pixels_with_new = [&] {
        int64_t total = static_cast<int64_t>(key.width) * key.height;
        for (const Layer& l : layers_) total += pixels(l.target);
        return total;
    };
    while (layers_.size() > 1 && pixels_with_new() > kMaxPixels) layers_.erase(least_recent());
    // The first layer is made whatever its size (a panel larger than the budget, in a huge window): there is none to
    // reuse.
    if (layers_.empty() || (layers_.size() < kMaxLayers && pixels_with_new() <= kMaxPixels)) {
        layers_.push_back(Layer{key, 0, RenderTarget(key.width, key.height), 0});
        return layers_.back();
    }
    Layer& reused = *least_recent();
    reused.key = key;
    reused.photo_version = 0;
    reused.target.resize(key.width, key.height);
    return reused;
}

void PhotoLayers::draw(const PhotoTexture& photo, const Key& key, RenderTarget& target) {
    FramebufferScope caller;  // its framebuffer, viewport, scissor and blending come back afterwards
    target.bind();
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_BLEND);
    glUseProgram(program_);
    glBindTexture(GL_TEXTURE_2D, photo.id());
    glUniform1i(loc(program_, "u_photo"), 0);
    glUniform2f(loc(program_, "u_photo_extent"), photo.u_max(), photo.v_max());
    set_photo_rect(program_, "u_crop", key.crop, photo);
    set_photo_rect(program_, "u_view", key.view, photo);
    glUniform1f(loc(program_, "u_dim"), key.dim);
    glUniform3f(loc(program_, "u_background"), key.background[0], key.background[1], key.background[2]);
    glBindVertexArray(vao_);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
}

}  // namespace gfx
