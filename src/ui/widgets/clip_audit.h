// Which texts of this frame a reader cannot read whole: cut by their window,
// column or table cell, or broken inside a word by wrapping ("quadrati c?").
// The window reports them in its state file (`clipped_text`) so a test can
// walk every screen at projector sizes and require none.
//
// ImGui draws text in many places; every call from vitscope's code to its
// text and labelled-widget functions goes through clip_audit_hooks.cpp
// (linked with --wrap, see CMakeLists.txt), which checks the item's
// rectangle against the clip rectangle ImGui drew it with.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace ui::clip_audit {

// Off unless asked for (the window turns it on with --state-file): then each
// check costs a text measurement or two.
void enable(bool on);
bool enabled();

// Forgets the last frame's findings; call before drawing a frame.
void begin_frame();
// "why · window · text", in drawing order, each text once.
const std::vector<std::string>& findings();
// The longest text one item (a text, a label, a text drawn into a draw list)
// drew this frame, in bytes: outside text must come bounded (bounded_text.h).
size_t longest_text();

// Called by the hooks after ImGui laid out the item they wrapped.
// The last item (text or label `text`, up to `end` or its "##") against the
// current clip rectangle.
void check_last_item(const char* text, const char* end = nullptr);
// A label drawn inside the last item (a button, a tab): cut when wider than it.
void check_label_fits(const char* label, float padding_x);
// Wrapped text: a word wider than the wrap width is broken in two.
void check_words(const char* text, const char* end = nullptr);
// The same for text wrapped `wrap` pixels wide (text drawn into a draw list).
void check_words_within(const char* text, const char* end, float wrap);
// Text drawn straight into a draw list at `min`..`max` against its clip rectangle.
void check_drawn_text(const char* text, const char* end, float min_x, float min_y, float max_x, float max_y,
                      float clip_min_x, float clip_min_y, float clip_max_x, float clip_max_y);

}  // namespace ui::clip_audit
