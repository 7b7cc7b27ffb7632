#include "vit/base/printable.h"

#include <cstdio>

namespace vit {
namespace {

void append_hex(std::string& out, const char* form, unsigned value) {
    char escaped[12];
    std::snprintf(escaped, sizeof escaped, form, value);
    out += escaped;
}

// The length of the valid UTF-8 sequence at text[i] (1 to 4), or 0 when the
// bytes there are not one: overlong forms, surrogates and values past U+10FFFF
// included, as a terminal's decoder would reject them.
size_t utf8_length(std::string_view text, size_t i) {
    const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    size_t n = 0;
    unsigned min = 0;
    if (lead >= 0xC2 && lead <= 0xDF) n = 2, min = 0x80;
    else if (lead >= 0xE0 && lead <= 0xEF) n = 3, min = 0x800;
    else if (lead >= 0xF0 && lead <= 0xF4) n = 4, min = 0x10000;
    else return 0;
    if (i + n > text.size()) return 0;
    unsigned value = lead & (0x7F >> n);
    for (size_t k = 1; k < n; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) return 0;
        value = (value << 6) | (byte(i + k) & 0x3F);
    }
    if (value < min || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return 0;
    return n;
}

}  // namespace

std::string printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c < 0x7F) {
            out += static_cast<char>(c);
            ++i;
        } else if (c == '\n') {
            out += "\\n", ++i;
        } else if (c == '\r') {
            out += "\\r", ++i;
        } else if (c == '\t') {
            out += "\\t", ++i;
        } else if (c < 0x80) {
            append_hex(out, "\\x%02x", c);
            ++i;
        } else if (const size_t n = utf8_length(text, i); n == 0) {
            append_hex(out, "\\x%02x", c);
            ++i;
        } else if (n == 2 && c == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0) {
            append_hex(out, "\\u%04x", static_cast<unsigned char>(text[i + 1]));  // a C1 control
            i += 2;
        } else {
            out.append(text.substr(i, n));
            i += n;
        }
    }
    return out;
}

std::string printable_excerpt(std::string_view text, size_t max_bytes) {
    std::string whole = printable(text);
    if (whole.size() <= max_bytes) return whole;
    const size_t tail_bytes = max_bytes / 3, head_bytes = max_bytes - tail_bytes;
    auto continuation = [&](size_t i) { return (static_cast<unsigned char>(whole[i]) & 0xC0) == 0x80; };
    size_t head = head_bytes, tail = whole.size() - tail_bytes;
    while (head > 0 && continuation(head)) --head;  // never cut inside a UTF-8 character
    while (tail < whole.size() && continuation(tail)) ++tail;
    return whole.substr(0, head) + " […] " + whole.substr(tail);
}

}  // namespace vit
