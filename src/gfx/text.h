// Text for figures, rasterised on the CPU with stb_truetype straight into
// read-back pixels: exact, the same with any GL driver, no glyph atlas.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gfx/rgba_image.h"

namespace gfx {

// $VITSCOPE_FONT when set, else DejaVu Sans (bold: DejaVu Sans Bold) from
// Debian's fonts-dejavu-core.
std::string default_font_path(bool bold = false);

class Font {
public:
    // Throws vit::Error naming the file (and the package that provides the
    // default) when it is missing, or not a TrueType font stb_truetype can
    // read safely (font_check.h says what is checked).
    explicit Font(const std::string& path);
    // The same from a font's bytes; `name` starts the errors ("font X").
    Font(std::vector<unsigned char> bytes, const std::string& name);
    ~Font();
    Font(const Font&) = delete;
    Font& operator=(const Font&) = delete;

    // Advance width of UTF-8 text at a pixel height (the font's ascent - descent).
    float width(std::string_view utf8, float px) const;
    float ascent(float px) const;   // above the baseline
    float descent(float px) const;  // below the baseline, positive
    // Draws text with its baseline at y, starting at x; antialiased, blended.
    void draw(RgbaImage& image, float x, float baseline, std::string_view utf8, float px, Rgba colour) const;

private:
    void init(std::vector<unsigned char> bytes, const std::string& name);
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace gfx
