// libFuzzer target: font files, checked by gfx::font_problem (font_check.h)
// and, when accepted, measured and drawn by gfx::Font through stb_truetype,
// compiled in with the sanitizers (stb_truetype_impl.c). A hole in the check
// shows as a sanitizer report or an stb_truetype assert; anything but a
// vit::Error escaping is a crash too.
#include <cstdint>
#include <string>
#include <vector>

#include "gfx/text.h"
#include "vit/base/error.h"

namespace {

// Printable ASCII, a kerned pair, accented letters (components), Greek and
// math (DejaVu's), a code point past the BMP, and a malformed byte.
std::string sample_text() {
    std::string s;
    for (char c = ' '; c <= '~'; ++c) s += c;
    return s + "AVWaTo \xc3\xa9\xc3\x85 \xce\xb1\xce\xa3 \xe2\x88\x9a \xf0\x9f\x98\x80 \xff";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const std::string text = sample_text();
    try {
        gfx::Font font(std::vector<unsigned char>(data, data + size), "font");
        gfx::RgbaImage image(160, 40);
        for (float px : {9.f, 23.5f}) {
            font.width(text, px);
            font.ascent(px);
            font.descent(px);
            font.draw(image, 1.25f, 30.5f, text, px, {20, 20, 20, 255});
        }
    } catch (const vit::Error&) {
    }
    return 0;
}
