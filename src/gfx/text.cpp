#include "gfx/text.h"

#include <stb/stb_truetype.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <vector>

#include "vit/base/error.h"

namespace gfx {

struct Font::Impl {
    std::vector<unsigned char> data;
    stbtt_fontinfo info{};
    int ascent = 0, descent = 0, line_gap = 0;  // font units
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

std::string default_font_path(bool bold) {
    if (const char* env = std::getenv("VITSCOPE_FONT"); env && *env) return env;
    return bold ? "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
                : "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
}

Font::Font(const std::string& path) : impl_(std::make_unique<Impl>()) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw vit::Error("font " + path + " not found (install Debian's fonts-dejavu-core, or set VITSCOPE_FONT to a .ttf file)");
    impl_->data.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    const int offset = stbtt_GetFontOffsetForIndex(impl_->data.data(), 0);
    if (impl_->data.size() < 12 || offset < 0 || !stbtt_InitFont(&impl_->info, impl_->data.data(), offset))
        throw vit::Error("font " + path + " is not a TrueType font");
    stbtt_GetFontVMetrics(&impl_->info, &impl_->ascent, &impl_->descent, &impl_->line_gap);
}

Font::~Font() = default;

float Font::ascent(float px) const { return impl_->ascent * stbtt_ScaleForPixelHeight(&impl_->info, px); }
float Font::descent(float px) const { return -impl_->descent * stbtt_ScaleForPixelHeight(&impl_->info, px); }

float Font::width(std::string_view utf8, float px) const {
    const float scale = stbtt_ScaleForPixelHeight(&impl_->info, px);
    const std::vector<int> cps = codepoints(utf8);
    float x = 0;
    for (size_t i = 0; i < cps.size(); ++i) {
        int advance = 0, bearing = 0;
        stbtt_GetCodepointHMetrics(&impl_->info, cps[i], &advance, &bearing);
        x += advance * scale;
        if (i + 1 < cps.size()) x += scale * stbtt_GetCodepointKernAdvance(&impl_->info, cps[i], cps[i + 1]);
    }
    return x;
}

void Font::draw(RgbaImage& image, float x, float baseline, std::string_view utf8, float px, Rgba colour) const {
    const float scale = stbtt_ScaleForPixelHeight(&impl_->info, px);
    const std::vector<int> cps = codepoints(utf8);
    const int y0 = static_cast<int>(std::floor(baseline));
    const float shift_y = baseline - y0;
    std::vector<unsigned char> glyph;
    for (size_t i = 0; i < cps.size(); ++i) {
        // Subpixel x keeps letter spacing even at any size.
        const int xi = static_cast<int>(std::floor(x));
        const float shift_x = x - xi;
        int gx0, gy0, gx1, gy1;
        stbtt_GetCodepointBitmapBoxSubpixel(&impl_->info, cps[i], scale, scale, shift_x, shift_y, &gx0, &gy0, &gx1, &gy1);
        const int gw = gx1 - gx0, gh = gy1 - gy0;
        if (gw > 0 && gh > 0) {
            glyph.assign(static_cast<size_t>(gw) * gh, 0);
            stbtt_MakeCodepointBitmapSubpixel(&impl_->info, glyph.data(), gw, gh, gw, scale, scale, shift_x, shift_y, cps[i]);
            for (int gy = 0; gy < gh; ++gy)
                for (int gx = 0; gx < gw; ++gx)
                    if (const unsigned char a = glyph[static_cast<size_t>(gy) * gw + gx])
                        image.blend(xi + gx0 + gx, y0 + gy0 + gy, colour, a / 255.f);
        }
        int advance = 0, bearing = 0;
        stbtt_GetCodepointHMetrics(&impl_->info, cps[i], &advance, &bearing);
        x += advance * scale;
        if (i + 1 < cps.size()) x += scale * stbtt_GetCodepointKernAdvance(&impl_->info, cps[i], cps[i + 1]);
    }
}

}  // namespace gfx
