// Writes a whole file or nothing: the bytes go to PATH.tmp, which is renamed
// over PATH only once complete, so a failure never leaves a partial file.
#pragma once
#include <string>
#include <string_view>

namespace vit {

// Throws vit::Error (one line naming the path) when the file cannot be written.
void write_file_atomic(const std::string& path, std::string_view bytes);

}  // namespace vit
