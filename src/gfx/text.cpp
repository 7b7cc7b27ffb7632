#include "gfx/text.h"

#include <stb/stb_truetype.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "gfx/font_check.h"
#include "vit/base/error.h"
#include "vit/base/read_file.h"

namespace gfx {

struct Font::Impl {
    std::vector<unsigned char> data;
    stbtt_fontinfo info{};
    int glyph_count = 0;
    int ascent = 0, descent = 0, line_gap = 0;  // font units

    // The glyph of a code point; a mapping to a glyph the font does not have
    // gives glyph 0 (the missing-glyph box), so stb_truetype never reads past its tables.
    int glyph(int codepoint) const {
        const int g = stbtt_FindGlyphIndex(&info, codepoint);
        return g >= 0 && g < glyph_count ? g : 0;
    }
    std::vector<int> glyphs_of(std::string_view utf8) const;

    // Rasterises glyph g and calls put(x, y, coverage) for each pixel it
    // covers, x and y from the pen's pixel. The bitmap is the box in the
    // glyph's header when that holds the outline's points (which bound its
    // curves), as stb_truetype draws it; else it spans those points and a
    // pixel more: a broken font's box need not hold its outline, and an edge
    // outside the bitmap trips stb_truetype's asserts.
    template <class Put>
    void draw_glyph(int g, float scale, float shift_x, float shift_y, std::vector<unsigned char>& bitmap,
                    Put put) const {
        stbtt_vertex* v = nullptr;
        const int n = stbtt_GetGlyphShape(&info, g, &v);
        if (n <= 0) return;
        int lo_x = v[0].x, hi_x = v[0].x, lo_y = v[0].y, hi_y = v[0].y;
        auto include = [&](int px, int py) {
            lo_x = std::min(lo_x, px), hi_x = std::max(hi_x, px);
            lo_y = std::min(lo_y, py), hi_y = std::max(hi_y, py);
        };
        for (int k = 0; k < n; ++k) {
            include(v[k].x, v[k].y);
            if (v[k].type == STBTT_vcurve || v[k].type == STBTT_vcubic) include(v[k].cx, v[k].cy);
            if (v[k].type == STBTT_vcubic) include(v[k].cx1, v[k].cy1);
        }
        int bx0 = 0, by0 = 0, bx1 = 0, by1 = 0;
        const bool boxed = stbtt_GetGlyphBox(&info, g, &bx0, &by0, &bx1, &by1) && bx0 <= lo_x && hi_x <= bx1 &&
                           by0 <= lo_y && hi_y <= by1;
        const int pad = boxed ? 0 : 1;
        if (boxed) lo_x = bx0, hi_x = bx1, lo_y = by0, hi_y = by1;
        // Font units to pixels, y down as in the image (stb_truetype's stbtt_GetGlyphBitmapBoxSubpixel).
        const int x0 = static_cast<int>(std::floor(lo_x * scale + shift_x)) - pad;
        const int x1 = static_cast<int>(std::ceil(hi_x * scale + shift_x)) + pad;
        const int y0 = static_cast<int>(std::floor(-hi_y * scale + shift_y)) - pad;
        const int y1 = static_cast<int>(std::ceil(-lo_y * scale + shift_y)) + pad;
        // An outline far larger than the type is a broken font's: skipped rather than rasterised at any size.
        const int largest = static_cast<int>(8 * scale * (ascent - descent)) + 256;
        if (x1 > x0 && y1 > y0 && x1 - x0 <= largest && y1 - y0 <= largest) {
            bitmap.assign(static_cast<size_t>(x1 - x0) * (y1 - y0), 0);
            stbtt__bitmap target{x1 - x0, y1 - y0, x1 - x0, bitmap.data()};
            stbtt_Rasterize(&target, 0.35f, v, n, scale, scale, shift_x, shift_y, x0, y0, 1, info.userdata);
            for (int gy = 0; gy < target.h; ++gy)
                for (int gx = 0; gx < target.w; ++gx)
                    if (const unsigned char a = bitmap[static_cast<size_t>(gy) * target.w + gx])
                        put(x0 + gx, y0 + gy, a);
        }
        stbtt_FreeShape(&info, v);
    }
    // Moves the pen x past glyph i of `glyphs`: its advance, then its kerning with the next.
    void move_pen(float& x, const std::vector<int>& glyphs, size_t i, float scale) const {
        int advance = 0, bearing = 0;
        stbtt_GetGlyphHMetrics(&info, glyphs[i], &advance, &bearing);
        x += advance * scale;
        if (i + 1 < glyphs.size()) x += scale * stbtt_GetGlyphKernAdvance(&info, glyphs[i], glyphs[i + 1]);
    }
};

namespace {

// Decodes UTF-8; a malformed byte becomes U+FFFD and decoding goes on.
std::vector<int> codepoints(std::string_view s) {
    std::vector<int> out;
    for (size_t i = 0; i < s.size();) {
        const auto b = static_cast<unsigned char>(s[i]);
        int len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
        if (len == 0 || i + len > s.size()) {
            out.push_back(0xFFFD);
            ++i;
            continue;
        }
        int cp = len == 1 ? b : b & (0x7F >> len);
        for (int k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
        out.push_back(cp);
        i += len;
    }
    return out;
}

}  // namespace

std::vector<int> Font::Impl::glyphs_of(std::string_view utf8) const {
    std::vector<int> out;
    for (int cp : codepoints(utf8)) out.push_back(glyph(cp));
    return out;
}

std::string default_font_path(bool bold) {
    if (const char* env = std::getenv("VITSCOPE_FONT"); env && *env) return env;
    return bold ? "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
                : "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
}

Font::Font(const std::string& path) : impl_(std::make_unique<Impl>()) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        throw vit::Error("font " + path +
                         " not found (install Debian's fonts-dejavu-core, or set VITSCOPE_FONT to a .ttf file)");
    const std::string bytes = vit::read_whole_file(path, kMaxFontBytes, "a font");
    init(std::vector<unsigned char>(bytes.begin(), bytes.end()), "font " + path);
}

Font::Font(std::vector<unsigned char> bytes, const std::string& name) : impl_(std::make_unique<Impl>()) {
    init(std::move(bytes), name);
}

void Font::init(std::vector<unsigned char> bytes, const std::string& name) {
    impl_->data = std::move(bytes);
    FontLayout layout;
    if (const std::string problem = font_problem(impl_->data.data(), impl_->data.size(), &layout); !problem.empty())
        throw vit::Error(name + ": not a usable TrueType font (" + problem + ")");
    if (!stbtt_InitFont(&impl_->info, impl_->data.data(), layout.offset))
        throw vit::Error(name + ": not a usable TrueType font (stb_truetype cannot read it)");
    impl_->glyph_count = layout.glyph_count;
    stbtt_GetFontVMetrics(&impl_->info, &impl_->ascent, &impl_->descent, &impl_->line_gap);
}

Font::~Font() = default;

float Font::ascent(float px) const { return impl_->ascent * stbtt_ScaleForPixelHeight(&impl_->info, px); }
float Font::descent(float px) const { return -impl_->descent * stbtt_ScaleForPixelHeight(&impl_->info, px); }

float Font::width(std::string_view utf8, float px) const {
    const float scale = stbtt_ScaleForPixelHeight(&impl_->info, px);
    const std::vector<int> glyphs = impl_->glyphs_of(utf8);
    float x = 0;
    for (size_t i = 0; i < glyphs.size(); ++i) impl_->move_pen(x, glyphs, i, scale);
    return x;
}

void Font::draw(RgbaImage& image, float x, float baseline, std::string_view utf8, float px, Rgba colour) const {
    const float scale = stbtt_ScaleForPixelHeight(&impl_->info, px);
    const std::vector<int> glyphs = impl_->glyphs_of(utf8);
    const int y0 = static_cast<int>(std::floor(baseline));
    const float shift_y = baseline - y0;
    std::vector<unsigned char> bitmap;
    for (size_t i = 0; i < glyphs.size(); ++i) {
        // Subpixel x keeps letter spacing even at any size.
        const int xi = static_cast<int>(std::floor(x));
        impl_->draw_glyph(glyphs[i], scale, x - xi, shift_y, bitmap,
                          [&](int gx, int gy, unsigned char a) { image.blend(xi + gx, y0 + gy, colour, a / 255.f); });
        impl_->move_pen(x, glyphs, i, scale);
    }
}

}  // namespace gfx
