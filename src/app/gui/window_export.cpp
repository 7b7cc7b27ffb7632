#include "app/gui/window_export.h"
#include "app/gui/window_platform.h"

#include <filesystem>
#include <vector>

#include "gfx/gl.h"

#include "app/gui/attention_figure.h"
#include "gfx/figure.h"
#include "gfx/png_writer.h"
#include "vit/base/error.h"

namespace app {

std::string unique_path(const std::string& dir, const std::string& stem, const std::string& ext) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path p = fs::path(dir) / (stem + ext);
    // A name is taken by anything there, a dangling symlink too (fs::exists would follow it).
    auto taken = [&](const fs::path& q) { return fs::exists(fs::symlink_status(q, ec)); };
    for (int n = 2; taken(p); ++n) p = fs::path(dir) / (stem + "_" + std::to_string(n) + ext);
    return p.string();
}

void save_window_png(const std::string& path, int w, int h, const vit::OutputRules& rules) {
    if (w <= 0 || h <= 0) throw vit::Error("the window has no pixels to save");
    std::vector<uint8_t> px(static_cast<size_t>(w) * h * 4);
    GLint pack = 4;
    glGetIntegerv(GL_PACK_ALIGNMENT, &pack);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
    glPixelStorei(GL_PACK_ALIGNMENT, pack);
    if (glGetError() != GL_NO_ERROR) throw vit::Error("reading the window's pixels failed");
    // GL rows run from the bottom; PNG rows from the top. The window is opaque.
    const size_t row = static_cast<size_t>(w) * 4;
    std::vector<uint8_t> flipped(px.size());
    for (int y = 0; y < h; ++y)
        std::copy(px.begin() + (h - 1 - y) * row, px.begin() + (h - y) * row, flipped.begin() + y * row);
    for (size_t i = 3; i < flipped.size(); i += 4) flipped[i] = 255;
    gfx::write_png(path, flipped.data(), w, h, {{"Software", "vitscope"}}, rules);
}

void save_figure_png(const session::AppState& s, const std::string& path, const vit::OutputRules& rules) {
    const vit::Trace* t = s.trace();
    if (!t || !s.loaded.image) throw vit::Error("nothing to export yet: no model has run on a photo");
    const session::Selection& sel = s.sel;
    const FigureChoice choice{sel.layer, sel.source, sel.head, sel.visible_heads(), sel.query};
    const gfx::FigureSpec spec = attention_figure(*s.loaded.image, s.loaded.image_path, s.loaded.crop, *s.loaded.model,
                                                  s.loaded.model_dir, *t, choice, s.style);
    gfx::export_figure(spec, path, rules);
}

std::string deliver_saved(const std::string& path) {
    offer_download(path);
    return std::filesystem::absolute(path).lexically_normal().string();
}

}  // namespace app
