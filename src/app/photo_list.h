// The photos a per-photo command is given: each IMAGE argument is a photo, a
// folder (its photos, in name order) or @LIST (a text file with one path a
// line; blank lines and lines starting with # are skipped). Refused as one
// line before any work: a folder without photos, a list that cannot be read
// or is empty, and a list past its bounds (16 MiB, 100,000 photos, 4096 bytes
// a line, no NUL byte), checked as it is read so an endless stream is refused.
#pragma once
#include <string>
#include <vector>

#include "app/cli_args.h"

namespace app {

std::vector<std::string> photo_paths(const CliArgs& args);

// Whether the name ends in an extension vitscope decodes (.jpg, .png, .webp, ...).
bool looks_like_photo(const std::string& path);

// A table of several photos: every line of `rows` gets `field` and `separator` first.
std::string prefix_lines(const std::string& rows, const std::string& field, char separator);

}  // namespace app
