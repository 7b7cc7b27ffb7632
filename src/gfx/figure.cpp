// render_figure and export_figure of figure.h.
#include "gfx/figure.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gfx/colorbar_ticks.h"
#include "gfx/figure_metrics.h"
#include "gfx/render_target.h"
#include "gfx/style_names.h"
#include "gfx/text.h"
#include "vit/base/error.h"

namespace gfx {
namespace {

namespace fm = figure_metrics;

constexpr Rgba kInk{26, 26, 26, 255};
constexpr Rgba kSoftInk{80, 80, 80, 255};
constexpr Rgba kFrame{150, 150, 150, 255};

struct Fonts {
    Font regular{default_font_path(false)};
    std::unique_ptr<Font> bold;
    Fonts() {
        try {
            bold = std::make_unique<Font>(default_font_path(true));
        } catch (const vit::Error&) {
            // The bold face is a nicety; the regular one was found.
        }
    }
    const Font& heading() const { return bold ? *bold : regular; }
};

// A font size no larger than px at which text fits in max_width.
float fitted(const Font& f, const std::string& text, float px, float max_width) {
    const float w = f.width(text, px);
    return w > max_width && w > 0 ? px * max_width / w : px;
}

void set_viewport(const FigureLayout& L, const PixelRect& r) {
    glViewport(r.x, L.height - r.y - r.h, r.w, r.h);  // GL counts rows from the bottom
}

std::string format_value(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

std::string json_rect(const PixelRect& r) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "[%d,%d,%d,%d]", r.x, r.y, r.w, r.h);
    return buf;
}

std::string json_number(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.9g", std::isfinite(v) ? v : 0.0);
    return buf;
}

std::string layout_json(const FigureSpec& s, const FigureLayout& L, float row_max) {
    return "{\"width\":" + std::to_string(L.width) + ",\"height\":" + std::to_string(L.height) +
           ",\"photo_panel\":" + json_rect(L.photo_panel) + ",\"map_panel\":" + json_rect(L.map_panel) +
           ",\"colorbar\":" + json_rect(L.colorbar) + ",\"crop_in_photo_panel\":[" + json_number(L.crop_x) + "," +
           json_number(L.crop_y) + "," + json_number(L.crop_w) + "," + json_number(L.crop_h) +
           "],\"grid\":" + std::to_string(s.grid) + ",\"colormap\":\"" + name_of(s.style.colormap) +
           "\",\"normalization\":\"" + name_of(s.style.normalization) +
           "\",\"value_min\":" + json_number(s.style.value_min) + ",\"value_max\":" + json_number(s.style.value_max) +
           ",\"row_max\":" + json_number(row_max) + ",\"opacity\":" + json_number(s.style.opacity) +
           ",\"fade\":" + (s.style.fade ? "true" : "false") + "}";
}

// The GL part: both panels and the colour bar on a white page.
RgbaImage draw_panels(const FigureSpec& spec, const FigureLayout& L) {
    FramebufferScope restore;
    RenderTarget target(L.width, L.height);
    target.bind();
    glDisable(GL_SCISSOR_TEST);
    glClearColor(1.f, 1.f, 1.f, 1.f);
    glClear(GL_COLOR_BUFFER_BIT);

    PhotoTexture photo;
    photo.upload(*spec.photo);
    GridTexture grid;
    grid.upload(spec.values, spec.grid);
    OverlayRenderer renderer;

    Marks marks = spec.marks;
    marks.hover_row = marks.hover_col = -1;  // where the mouse happened to be is no part of a figure
    OverlayStyle style = spec.style;
    style.line_width = std::max(1.f, static_cast<float>(fm::kLinePx * L.unit));
    set_viewport(L, L.photo_panel);
    renderer.draw(photo, spec.crop, &grid, style, marks);

    // The map alone, opaque, so its colours read straight off the colour bar.
    OverlayStyle opaque = style;
    opaque.opacity = 1.f;
    opaque.fade = false;
    set_viewport(L, L.map_panel);
    renderer.draw(photo, spec.crop, &grid, opaque, marks, &spec.crop);

    set_viewport(L, L.colorbar);
    renderer.draw_colorbar(style);
    return target.read();
}

void draw_text(RgbaImage& img, const FigureSpec& spec, const FigureLayout& L, const Fonts& fonts, float row_max) {
    const float u = L.unit;
    const int line = std::max(1, static_cast<int>(std::lround(fm::kLinePx * 0.75 * u)));
    auto frame = [&](const PixelRect& r) {
        img.stroke_rect(r.x - line, r.y - line, r.w + 2 * line, r.h + 2 * line, line, kFrame);
    };
    frame(L.map_panel);
    frame(L.colorbar);

    // Panel titles.
    const float title_px = static_cast<float>(fm::kPanelTitlePx * u);
    const int title_base = L.photo_panel.y -
                           static_cast<int>(std::lround(fm::kPanelTitlePx * (fm::kLineSpacing - 1) * u)) -
                           static_cast<int>(std::lround(fonts.regular.descent(title_px)));
    const std::string g = std::to_string(spec.grid);
    const std::string photo_title = "photo, " + spec.value_label + " over the model's crop";
    const std::string map_title = spec.value_label + " per patch (" + g + " \u00d7 " + g + ")";
    fonts.regular.draw(img, L.photo_panel.x, title_base, photo_title,
                       fitted(fonts.regular, photo_title, title_px, L.photo_panel.w), kSoftInk);
    fonts.regular.draw(img, L.map_panel.x, title_base, map_title,
                       fitted(fonts.regular, map_title, title_px, L.map_panel.w), kSoftInk);

    // Caption under the photo.
    const int below = L.colorbar.y;
    float y = below;
    const struct {
        const std::string& text;
        double px;
        const Font& font;
        Rgba colour;
    } lines[] = {{spec.title, fm::kCaptionTitlePx, fonts.heading(), kInk},
                 {spec.subtitle, fm::kCaptionPx, fonts.regular, kInk},
                 {spec.note, fm::kCaptionPx, fonts.regular, kSoftInk}};
    bool first = true;
    for (const auto& l : lines) {
        const float px = static_cast<float>(l.px * u);
        y += first ? l.font.ascent(px) : static_cast<float>(px * fm::kLineSpacing);
        first = false;
        if (!l.text.empty())
            l.font.draw(img, L.photo_panel.x, y, l.text, fitted(l.font, l.text, px, L.photo_panel.w), l.colour);
    }

    // Ticks and their values under the colour bar.
    const PixelRect& bar = L.colorbar;
    const float tick_px = static_cast<float>(fm::kTickPx * u);
    const int tick_len = static_cast<int>(std::lround(fm::kTickLength * u));
    const int tick_w = std::max(1, static_cast<int>(std::lround(2 * u)));
    const float label_base =
        bar.y + bar.h + tick_len + fonts.regular.ascent(tick_px) + static_cast<float>(fm::kTickLabelGap * u);
    for (const Tick& t : colorbar_ticks(spec.style, row_max)) {
        const int x = bar.x + static_cast<int>(std::lround(t.position * (bar.w - 1)));
        img.fill_rect(x - tick_w / 2, bar.y + bar.h, tick_w, tick_len, kInk);
        const float w = fonts.regular.width(t.label, tick_px);
        const float lx = std::clamp(x - w / 2, bar.x - 24 * u, bar.x + bar.w + 24 * u - w);
        fonts.regular.draw(img, lx, label_base, t.label, tick_px, kInk);
    }
    std::string bar_label = spec.value_label;
    if (spec.style.normalization == Normalization::Log) bar_label += " (log scale)";
    bar_label += "   \u00b7   largest " + format_value(row_max);
    const float bar_px = fitted(fonts.regular, bar_label, tick_px, bar.w);
    const float bw = fonts.regular.width(bar_label, bar_px);
    fonts.regular.draw(img, bar.x + (bar.w - bw) / 2, label_base + static_cast<float>(tick_px * fm::kLineSpacing),
                       bar_label, bar_px, kSoftInk);
}

}  // namespace

Figure render_figure(const FigureSpec& spec) {
    if (spec.grid <= 0 || spec.values.size() != static_cast<size_t>(spec.grid) * spec.grid)
        throw vit::Error("figure: " + std::to_string(spec.values.size()) + " values for a " +
                         std::to_string(spec.grid) + " x " + std::to_string(spec.grid) + " grid");
    Figure fig;
    fig.layout = figure_layout(spec);
    const Fonts fonts;  // before any GL work: a missing font fails fast

    // The same maximum the shader normalises by (GridTexture::max_value).
    float row_max = -INFINITY;
    for (float v : spec.values)
        if (std::isfinite(v)) row_max = std::max(row_max, v);
    if (!std::isfinite(row_max)) row_max = 0.f;
    fig.image = draw_panels(spec, fig.layout);
    draw_text(fig.image, spec, fig.layout, fonts, row_max);

    std::string description = spec.title;
    for (const std::string* s : {&spec.subtitle, &spec.note})
        if (!s->empty()) description += (description.empty() ? "" : "\n") + *s;
    fig.metadata = {{"Title", spec.title.empty() ? "vitscope figure" : spec.title},
                    {"Description", description},
                    {"Software", "vitscope"},
                    {"vitscope:layout", layout_json(spec, fig.layout, row_max)}};
    return fig;
}

void export_figure(const FigureSpec& spec, const std::string& path, const vit::OutputRules& rules) {
    vit::check_output(path, rules);  // before the drawing
    const Figure fig = render_figure(spec);
    write_png(path, fig.image, fig.metadata, rules);
}

}  // namespace gfx
