#include "session/base/script_args.h"

#include <charconv>
#include <cmath>
#include <stdexcept>

#include "vit/base/error.h"

namespace session {
namespace {

bool whole(std::string_view text, int& v) {
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

}  // namespace

int whole_number(const ScriptCommand& c, const std::string& text) {
    int v = 0;
    // std::from_chars takes no '+': a leading one is allowed as std::stoi allowed it.
    if (whole(!text.empty() && text[0] == '+' ? std::string_view(text).substr(1) : std::string_view(text), v)) return v;
    throw vit::Error(c.where + ": " + c.verb + " expects a whole number, got '" + text + "'");
}

float finite_number(const ScriptCommand& c, const std::string& text, const std::string& what) {
    try {
        size_t used = 0;
        const float v = std::stof(text, &used);
        if (used == text.size() && std::isfinite(v)) return v;
    } catch (const std::exception&) {
    }
    throw vit::Error(c.where + ": " + what + " expects a number, got '" + text + "'");
}

int script_token(const ScriptCommand& c, const vit::Trace& t) {
    if (c.arg == "cls" || c.arg == "CLS") return 0;
    if (c.arg == "none") return -1;
    const auto comma = c.arg.find(',');
    int r = -1, col = -1;
    if (comma == std::string::npos || !whole(std::string_view(c.arg).substr(0, comma), r) ||
        !whole(std::string_view(c.arg).substr(comma + 1), col) || r < 0 || col < 0)
        throw vit::Error(c.where + ": " + c.verb + " expects ROW,COL or cls, got '" + c.arg + "'");
    if (r >= t.grid || col >= t.grid)
        throw vit::Error(c.where + ": patch " + c.arg + " is outside the " + std::to_string(t.grid) + " x " +
                         std::to_string(t.grid) + " grid");
    return t.token_of(r, col);
}

bool on_or_off(const ScriptCommand& c) {
    if (c.arg != "on" && c.arg != "off") throw vit::Error(c.where + ": " + c.verb + " is on or off");
    return c.arg == "on";
}

}  // namespace session
