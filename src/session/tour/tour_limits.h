// How large a tour file may be, so no tour can exhaust memory, write
// gigabytes of slides or overflow what one ImGui draw list can hold (a
// 20,000-character title did: each glyph takes 4 of its 65,536 vertices).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace session::tour_limits {

inline constexpr uint64_t kFileBytes = 256 << 10;  // the shipped tours are under 8 KiB
inline constexpr int kSteps = 100;                 // each step is a 1920 x 1080 slide
inline constexpr size_t kLineBytes = 2000;
inline constexpr size_t kTitleBytes = 200;      // one line on the card, one <h2> in the slides
inline constexpr int kRegions = 32;             // each a set of at most 256 x 256 patches
inline constexpr int kParagraphs = 8;           // text: lines in one step
inline constexpr size_t kStepTextBytes = 4000;  // all of a step's text: lines together

// Where the first '{' with no '}' after it is (std::string::npos: none).
size_t unclosed_brace(const std::string& text);

// Removes a UTF-8 byte order mark (EF BB BF) at the start: editors on Windows add one.
std::string without_bom(std::string text);

}  // namespace session::tour_limits
