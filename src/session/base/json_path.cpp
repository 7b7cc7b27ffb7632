#include "session/base/json_path.h"

#include "vit/base/base64.h"

namespace session {
namespace {

using nlohmann::json;

constexpr const char* kPathBytes = "path_bytes";

// Whether the JSON writer takes the text as a string: exactly valid UTF-8.
bool writes_as_string(const std::string& text) {
    try {
        (void)json(text).dump();
        return true;
    } catch (const json::type_error&) {
        return false;
    }
}

}  // namespace

json path_to_json(const std::string& path) {
    if (writes_as_string(path)) return path;
    return {{kPathBytes, vit::base64_encode(path)}};
}

std::optional<std::string> path_from_json(const json& value) {
    if (value.is_string()) return value.get<std::string>();
    if (!value.is_object() || value.size() != 1 || !value.contains(kPathBytes) || !value[kPathBytes].is_string())
        return std::nullopt;
    return vit::base64_decode(value[kPathBytes].get_ref<const std::string&>());
}

}  // namespace session
