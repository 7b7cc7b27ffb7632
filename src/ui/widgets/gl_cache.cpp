#include "ui/widgets/gl_cache.h"

#include <exception>

namespace ui {

GlCache::GlCache() {
    try {
        renderer_ = std::make_unique<gfx::OverlayRenderer>();
    } catch (const std::exception& e) {
        error_ = std::string("Overlays unavailable: ") + e.what();
    }
}

GlCache::~GlCache() = default;

void GlCache::sync(const session::AppState& s) {
    const session::Loaded& l = s.loaded;
    if (l.image && l.generation != photo_generation_) {
        photo_.upload(*l.image);
        photo_generation_ = l.generation;
    }
    const session::Loaded& c = s.compared;
    if (c.image && c.generation != compare_generation_) {
        compare_photo_.upload(*c.image);
        compare_generation_ = c.generation;
    }
}

GLuint GlCache::colormap_texture(gfx::Colormap c) {
    auto& bar = bars_[static_cast<size_t>(c)];
    if (!bar && renderer_) {
        gfx::FramebufferScope keep;
        bar = std::make_unique<gfx::RenderTarget>(256, 4);
        bar->bind();
        gfx::OverlayStyle style;
        style.colormap = c;
        renderer_->draw_colorbar(style);
    }
    return bar ? bar->texture() : 0;
}

}  // namespace ui
