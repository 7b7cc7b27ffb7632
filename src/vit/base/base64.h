// Base64 (RFC 4648, standard alphabet, '=' padding): how the lesson page
// carries its binary arrays inside one HTML file, and lessons and settings
// a photo's bytes or a path that is not UTF-8.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace vit {

std::string base64_encode(std::string_view bytes);
// The bytes of padded base64 text; nullopt for anything else (a length not a
// multiple of 4, a letter outside the alphabet, '=' before the end).
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace vit
