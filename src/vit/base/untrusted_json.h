// JSON from outside (lessons, configs, safetensors headers, settings, hub
// files): nesting is bounded before nlohmann parses it, because its dump()
// (which error messages use) recurses once per level, so a file nested
// 100,000 deep overflowed the stack. Values quoted in errors are cut, so a
// 10 MB value gives a short line.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace vit {

// Deeper than any config, header or lesson vitscope reads (they nest 4 levels at most).
inline constexpr int kMaxJsonDepth = 64;

// The deepest nesting of arrays and objects in text (strings skipped).
int json_nesting_depth(std::string_view text);

// Parses text read from `source` (named first in every error). Throws
// vit::Error, one line: nested deeper than kMaxJsonDepth (naming the depth),
// or not valid JSON (nlohmann's reason, cut).
nlohmann::json parse_untrusted_json(std::string_view text, const std::string& source);

// Text for an error message: at most max_chars characters, "…" marking a cut,
// on one line, its controls and invalid bytes escaped (vit/base/printable.h).
std::string quote_for_error(std::string_view text, size_t max_chars = 80);
inline std::string quote_for_error(const std::string& text, size_t max_chars = 80) {
    return quote_for_error(std::string_view(text), max_chars);
}
// A JSON value for an error message, the same way.
std::string quote_for_error(const nlohmann::json& value, size_t max_chars = 80);

}  // namespace vit
