// Text from outside the program as the window draws it: file names and paths
// (any length the file system allows), photo and model names, class labels
// from a config.json, error messages that quote them. ImGui reserves four
// vertices a byte for one text item in a draw list of 16-bit indices, so a
// long enough string aborts it (`_VtxCurrentIdx < (1 << 16)`: a 20,000-
// character tour title once did). Every place that draws such a string draws
// bounded(string) instead, so no input reaches a draw list unbounded, whatever
// the limits on reading it.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace ui {

// Bytes of outside text one item shows: a 4096-byte path (PATH_MAX) is
// shortened, a 1000-byte class label (config.cpp's limit) is not, and even
// at one glyph a byte an item stays far below 16,384 glyphs (65,536 vertices).
inline constexpr std::size_t kShownTextBytes = 1200;

// `text` when it has at most max_bytes bytes; else its longest beginning that
// ends on a UTF-8 character boundary and leaves room for "…", followed by "…"
// (the result has at most max_bytes bytes; max_bytes below 3 gives "").
// A NUL byte ends the text, as it would end it for ImGui.
std::string bounded(std::string_view text, std::size_t max_bytes = kShownTextBytes);

}  // namespace ui
