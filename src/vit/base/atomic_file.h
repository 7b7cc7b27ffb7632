// Writes one of the program's own files (settings, the state file, a dump)
// whole or nothing, replacing the one before: write_output with force, so the
// bytes go to a temporary name unique to the run and are renamed into place.
// Files a person names go through output_file.h's rules instead. A symlink
// is followed (its target replaced, the link kept); a special file is
// written into, a FIFO only when something reads it already.
#pragma once
#include <string>
#include <string_view>

namespace vit {

// Throws vit::Error (one line naming the path and errno's text) when the file cannot be written.
void write_file_atomic(const std::string& path, std::string_view bytes);

}  // namespace vit
