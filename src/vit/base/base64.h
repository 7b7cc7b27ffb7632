// Base64 (RFC 4648, standard alphabet, '=' padding): how the lesson page
// carries its binary arrays inside one HTML file.
#pragma once
#include <string>
#include <string_view>

namespace vit {

std::string base64_encode(std::string_view bytes);

}  // namespace vit
