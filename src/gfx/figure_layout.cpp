// figure_layout, attention_caption and model_title of figure.h.
#include <algorithm>
#include <cmath>
#include <filesystem>

#include "gfx/figure.h"
#include "gfx/figure_metrics.h"
#include "vit/base/error.h"

namespace gfx {

namespace fm = figure_metrics;

FigureLayout figure_layout(const FigureSpec& spec) {
    if (!spec.photo || spec.photo->width <= 0 || spec.photo->height <= 0) throw vit::Error("figure: no photo");
    if (spec.size < 64)
        throw vit::Error("figure: size " + std::to_string(spec.size) + " is too small (64 px at least)");
    FigureLayout L;
    const double u = spec.size / 2048.0;
    auto px = [u](double v) { return static_cast<int>(std::lround(v * u)); };
    L.unit = static_cast<float>(u);

    const double pw_over_ph = static_cast<double>(spec.photo->width) / spec.photo->height;
    int pw = spec.size, ph = spec.size;
    if (pw_over_ph >= 1) ph = std::max(1, static_cast<int>(std::lround(spec.size / pw_over_ph)));
    else pw = std::max(1, static_cast<int>(std::lround(spec.size * pw_over_ph)));
    const int side = ph;  // the map panel is square and as tall as the photo

    const int margin = px(fm::kMargin);
    const int top = margin + px(fm::kPanelTitlePx * fm::kLineSpacing);
    L.photo_panel = {margin, top, pw, ph};
    L.map_panel = {margin + pw + px(fm::kPanelGap), top, side, side};

    const int below = top + ph + px(fm::kBelowPanels);
    L.colorbar = {L.map_panel.x, below, side, std::max(4, px(fm::kBarHeight))};
    // Text extents from the font sizes: DejaVu Sans's ascent is about 0.8 and
    // its descent 0.25 of the pixel height stb_truetype scales to.
    constexpr double kAscent = 0.8, kDescent = 0.3;
    const int bar_bottom =
        L.colorbar.y + L.colorbar.h +
        px(fm::kTickLength + fm::kTickLabelGap + fm::kTickPx * (kAscent + fm::kLineSpacing + kDescent));
    const int caption_bottom =
        below + px(fm::kCaptionTitlePx * kAscent + fm::kCaptionPx * (2 * fm::kLineSpacing + kDescent));
    L.width = L.map_panel.x + side + margin;
    L.height = std::max(bar_bottom, caption_bottom) + margin;

    const double sx = pw / static_cast<double>(spec.photo->width), sy = ph / static_cast<double>(spec.photo->height);
    L.crop_x = spec.crop.x * sx;
    L.crop_y = spec.crop.y * sy;
    L.crop_w = spec.crop.w * sx;
    L.crop_h = spec.crop.h * sy;
    return L;
}

std::string attention_caption(int layer, int head, int query_token, int query_row, int query_col) {
    std::string s = "layer " + std::to_string(layer) + " \u00b7 ";
    s += head < 0 ? "mean of heads" : "head " + std::to_string(head);
    s += " \u00b7 query ";
    if (query_row >= 0)
        s += "patch (" + std::to_string(query_row) + ", " + std::to_string(query_col) + ") (token " +
             std::to_string(query_token) + ")";
    else if (query_token == 0) s += "CLS";
    else s += "token " + std::to_string(query_token);
    return s;
}

std::string model_title(const std::string& model_dir, const std::string& config_name) {
    std::filesystem::path p = std::filesystem::path(model_dir).lexically_normal();
    if (p.filename().empty()) p = p.parent_path();
    const std::string name = p.filename().string();
    return name.empty() || name == "." ? config_name : name;
}

}  // namespace gfx
