#include "vit/base/untrusted_json.h"

#include <algorithm>

#include "vit/base/error.h"
#include "vit/base/printable.h"

namespace vit {

int json_nesting_depth(std::string_view text) {
    int depth = 0, deepest = 0;
    bool in_string = false, escaped = false;
    for (char c : text) {
        if (in_string) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return deepest;
}

nlohmann::json parse_untrusted_json(std::string_view text, const std::string& source) {
    const int depth = json_nesting_depth(text);
    if (depth > kMaxJsonDepth)
        throw Error(source + ": JSON nested " + std::to_string(depth) + " levels deep (at most " +
                    std::to_string(kMaxJsonDepth) + ")");
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        // nlohmann's message quotes the token it stopped in, which can be a whole long string.
        throw Error(source + ": not valid JSON (" + quote_for_error(std::string_view(e.what()), 200) + ")");
    }
}

std::string quote_for_error(std::string_view text, size_t max_chars) {
    // Cut first (counting characters, never inside a UTF-8 sequence), then made printable.
    size_t chars = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if ((c & 0xC0) != 0x80 && chars++ == max_chars) return printable(text.substr(0, i)) + "…";
    }
    return printable(text);
}

std::string quote_for_error(const nlohmann::json& value, size_t max_chars) {
    // Within kMaxJsonDepth dump() is safe; invalid UTF-8 in a string is shown replaced, not thrown on.
    return quote_for_error(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), max_chars);
}

}  // namespace vit
