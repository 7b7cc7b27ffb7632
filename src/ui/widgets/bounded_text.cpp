#include "ui/widgets/bounded_text.h"

namespace ui {

std::string bounded(std::string_view text, std::size_t max_bytes) {
    if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos) text = text.substr(0, nul);
    if (text.size() <= max_bytes) return std::string(text);
    constexpr std::string_view kEllipsis = "\u2026";  // 3 bytes in UTF-8
    if (max_bytes < kEllipsis.size()) return "";
    std::size_t cut = max_bytes - kEllipsis.size();
    // Back to the first byte of a character: continuation bytes are 10xxxxxx, at most 3
    // of them in one (a longer run is not UTF-8; it is cut where it is).
    for (int back = 0; back < 3 && cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80; ++back) --cut;
    std::string out(text.substr(0, cut));
    out += kEllipsis;
    return out;
}

}  // namespace ui
