// Reads a whole file into memory, for every file the program reads at once
// (photos, configs, label lists, shaders): one set of checks and errors, and
// the size limit checked on the open file before anything is read.
#pragma once
#include <cstdint>
#include <string>

namespace vit {

// The bytes of the regular file at path. `what` names the kind of file for
// the errors ("an image"). Throws vit::Error, one line starting with the path:
// not found, a directory, not a regular file (a FIFO would block), empty,
// over max_bytes, or unreadable.
std::string read_whole_file(const std::string& path, uint64_t max_bytes, const std::string& what);

}  // namespace vit
