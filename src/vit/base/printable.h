// Text quoted from outside (a file's bytes, a path, an argument) made safe to
// show on a terminal, in the window and in logs: no byte of it can move the
// cursor, set a title or clear a screen. C0 controls, DEL and ESC become
// "\x1b"-style escapes (newline, CR and tab "\n", "\r", "\t"), C1 controls
// (U+0080 to U+009F, which some terminals obey) "\u009b", and bytes that are
// not UTF-8 "\xNN". Printable ASCII and valid UTF-8 pass unchanged, so the
// result escaped again is the same text (messages are wrapped and rewrapped).
#pragma once
#include <string>
#include <string_view>

namespace vit {

std::string printable(std::string_view text);

// printable, and at most max_bytes of it: a longer text keeps its start and
// its end (the end of a message usually says what to do) around " […] ".
std::string printable_excerpt(std::string_view text, size_t max_bytes);

}  // namespace vit
