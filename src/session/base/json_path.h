// Paths in the program's JSON files (lessons, settings), byte for byte. A
// Linux file name is bytes, not text: one that is not valid UTF-8 cannot be a
// JSON string (the writer would refuse the whole file), so it is written as
// {"path_bytes": "<base64 of the bytes>"} and read back to the same bytes.
#pragma once
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace session {

// A JSON string when the path is valid UTF-8, else {"path_bytes": base64}.
nlohmann::json path_to_json(const std::string& path);

// The path either form holds; nullopt for any other value.
std::optional<std::string> path_from_json(const nlohmann::json& value);

}  // namespace session
