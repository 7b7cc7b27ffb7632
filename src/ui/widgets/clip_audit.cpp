#include "ui/widgets/clip_audit.h"

#include <algorithm>
#include <cstring>
#include <set>

#include <imgui.h>
#include <imgui_internal.h>

namespace ui::clip_audit {
namespace {

constexpr float kSlack = 1.f;        // pixels: rounding, not a cut
constexpr size_t kMaxFindings = 64;  // enough to fix from; the state file stays small
constexpr size_t kMaxChars = 80;

bool g_on = false;
std::vector<std::string> g_findings;
std::set<std::string> g_seen;
size_t g_longest = 0;

// The longest text one item drew this frame, in bytes (up to a label's "##").
void note_length(const char* text, const char* end) {
    if (!text) return;
    if (!end) end = text + std::strlen(text);
    if (const char* id = std::strstr(text, "##"); id && id < end) end = id;
    g_longest = std::max(g_longest, static_cast<size_t>(end - text));
}

// The text as shown: up to `end`, or to a label's "##" (what follows is an id).
std::string shown_text(const char* text, const char* end) {
    if (!text) return {};
    if (!end) end = text + std::strlen(text);
    if (const char* id = std::strstr(text, "##"); id && id < end) end = id;
    std::string s(text, end);
    if (s.size() > kMaxChars) {
        size_t n = kMaxChars;
        while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;  // not inside a UTF-8 character
        s = s.substr(0, n) + "…";
    }
    return s;
}

void record(const char* why, const ImGuiWindow* w, const std::string& text) {
    if (text.empty() || g_findings.size() >= kMaxFindings) return;
    const char* window = w && w->RootWindow ? w->RootWindow->Name : "";
    std::string line = std::string(why) + " · " + window + " · " + text;
    if (g_seen.insert(line).second) g_findings.push_back(std::move(line));
}

// The window ImGui is laying out, when its items are really drawn this frame.
ImGuiWindow* drawing_window() {
    if (!g_on || !GImGui) return nullptr;
    ImGuiWindow* w = GImGui->CurrentWindow;
    if (!w || w->SkipItems || w->Hidden) return nullptr;  // collapsed, or measured before first shown
    return w;
}

// What is below the bottom of a window that scrolls is read by scrolling;
// in one that cannot (the photo, the heads, the tour card) it is lost.
bool scrolls_vertically(const ImGuiWindow* w) {
    constexpr ImGuiWindowFlags kFixed = ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
    return w->ScrollMax.y > 0 && (w->Flags & kFixed) != kFixed;
}

// Text above or below the part of a window on show is read by scrolling the
// window whose own edge cuts it: the window itself, or (for a child, such as
// a table, seen through its parent) the parent that shows only part of it.
bool reachable_by_scrolling(const ImGuiWindow* w, const ImRect& r) {
    for (; w; w = w->ParentWindow) {
        if (r.Max.y > w->InnerRect.Max.y + kSlack || r.Min.y < w->InnerRect.Min.y - kSlack)
            return scrolls_vertically(w);
        if (!(w->Flags & ImGuiWindowFlags_ChildWindow)) break;
    }
    return true;
}

// Likewise sideways, where the cut is the window's own edge (a wide table
// that scrolls), not a column's.
bool scrolls_sideways_at(const ImGuiWindow* w, const ImRect& clip) {
    // (ImGui measures ScrollMax.x for every window; only these can be scrolled sideways.)
    return (w->Flags & ImGuiWindowFlags_HorizontalScrollbar) && w->ScrollMax.x > 0 &&
           clip.Max.x >= w->InnerClipRect.Max.x - kSlack;
}

void check_rect(const ImGuiWindow* w, const ImRect& r, const ImRect& clip, const std::string& text) {
    if ((r.Max.x > clip.Max.x + kSlack || r.Min.x < clip.Min.x - kSlack) && !scrolls_sideways_at(w, clip))
        record("cut at the side", w, text);
    else if ((r.Max.y > clip.Max.y + kSlack || r.Min.y < clip.Min.y - kSlack) && !reachable_by_scrolling(w, r))
        record("cut at the bottom", w, text);
}

}  // namespace

void enable(bool on) { g_on = on; }
bool enabled() { return g_on; }

void begin_frame() {
    g_findings.clear();
    g_seen.clear();
    g_longest = 0;
}

const std::vector<std::string>& findings() { return g_findings; }
size_t longest_text() { return g_longest; }

void check_last_item(const char* text, const char* end) {
    ImGuiWindow* w = drawing_window();
    if (!w) return;
    note_length(text, end);
    const std::string s = shown_text(text, end);
    if (s.empty()) return;
    check_rect(w, GImGui->LastItemData.Rect, w->ClipRect, s);
}

void check_label_fits(const char* label, float padding_x) {
    ImGuiWindow* w = drawing_window();
    if (!w) return;
    const std::string s = shown_text(label, nullptr);
    if (s.empty()) return;
    const ImRect& r = GImGui->LastItemData.Rect;
    if (ImGui::CalcTextSize(s.c_str()).x + 2 * padding_x > r.GetWidth() + kSlack) record("label cut", w, s);
}

void check_words(const char* text, const char* end) {
    ImGuiWindow* w = drawing_window();
    if (!w || !text || w->DC.TextWrapPos < 0) return;
    check_words_within(text, end, ImGui::CalcWrapWidthForPos(GImGui->LastItemData.Rect.Min, w->DC.TextWrapPos));
}

void check_words_within(const char* text, const char* end, float wrap) {
    ImGuiWindow* w = drawing_window();
    if (!w || !text || wrap <= 0) return;
    if (!end) end = text + std::strlen(text);
    // Where ImGui breaks the lines (it also breaks after '.' or ',', and
    // inside a word wider than the line): a break between two non-spaces
    // splits a word or a number ("quadrati c?", "2. 9794").
    const auto space = [](char c) { return c == ' ' || c == '\n' || c == '\t'; };
    const ImFont* font = ImGui::GetFont();
    const float scale = ImGui::GetFontSize() / font->FontSize;
    for (const char* line = text; line < end;) {  // each line of the text as written
        const char* line_end = static_cast<const char*>(std::memchr(line, '\n', end - line));
        if (!line_end) line_end = end;
        for (const char* p = line; p < line_end;) {
            const char* brk = font->CalcWordWrapPositionA(scale, p, line_end, wrap);
            if (brk <= p) brk = p + 1;  // ImGui draws at least one character a line
            if (brk >= line_end) break;
            if (!space(brk[-1]) && !space(*brk)) {
                record("word broken", w, shown_text(text, end));
                return;
            }
            p = brk;
            while (p < line_end && space(*p)) ++p;  // ImGui skips the blanks a line starts with
        }
        line = line_end + 1;
    }
}

void check_drawn_text(const char* text, const char* end, float min_x, float min_y, float max_x, float max_y,
                      float clip_min_x, float clip_min_y, float clip_max_x, float clip_max_y) {
    ImGuiWindow* w = drawing_window();
    if (!w) return;
    note_length(text, end);
    check_rect(w, ImRect(min_x, min_y, max_x, max_y), ImRect(clip_min_x, clip_min_y, clip_max_x, clip_max_y),
               shown_text(text, end));
}

}  // namespace ui::clip_audit
