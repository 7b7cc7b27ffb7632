// The hooks behind clip_audit.h. The link wraps these ImGui functions
// (-Wl,--wrap=SYMBOL, CMakeLists.txt): every call to SYMBOL from another
// object file (vitscope's panels, and ImGui's widgets calling the draw list)
// reaches __wrap_SYMBOL here, which calls the original (__real_SYMBOL) and
// then checks what it drew. The names are the functions' mangled C++ names
// in Dear ImGui 1.86. This file is linked in only where the wrapping is.
#include <cfloat>
#include <cstdarg>

#include <imgui.h>
#include <imgui_internal.h>

#include "ui/widgets/clip_audit.h"

namespace {

namespace audit = ui::clip_audit;

// After a formatted text item: the item against its clip, its words against the wrap width.
void after_text(const char* fmt, va_list args) {
    if (!audit::enabled()) return;
    char buf[1024 * 3 + 1];  // as large as ImGui's own (ImGuiContext::TempBuffer): the text as drawn
    const int n = ImFormatStringV(buf, sizeof buf, fmt, args);
    audit::check_last_item(buf, buf + n);
    audit::check_words(buf, buf + n);
}

// Text drawn into a draw list, against the clip rectangle it is drawn with.
void after_draw_list_text(const ImDrawList* dl, const ImFont* font, float size, const ImVec2& pos, const char* b,
                          const char* e, float wrap_width, const ImVec4* fine_clip) {
    if (!audit::enabled() || !b || (e && e <= b) || !*b) return;
    if (!font) font = dl->_Data->Font;
    if (size <= 0) size = dl->_Data->FontSize;
    const ImVec2 ts = font->CalcTextSizeA(size, FLT_MAX, wrap_width, b, e);
    ImVec4 clip = dl->_CmdHeader.ClipRect;
    if (fine_clip) {
        clip.x = ImMax(clip.x, fine_clip->x), clip.y = ImMax(clip.y, fine_clip->y);
        clip.z = ImMin(clip.z, fine_clip->z), clip.w = ImMin(clip.w, fine_clip->w);
    }
    audit::check_drawn_text(b, e, pos.x, pos.y, pos.x + ts.x, pos.y + ts.y, clip.x, clip.y, clip.z, clip.w);
    if (wrap_width > 0) audit::check_words_within(b, e, wrap_width);
}

}  // namespace

extern "C" {

// ImDrawList::AddText, both overloads (the first argument is `this`).
void __real__ZN10ImDrawList7AddTextERK6ImVec2jPKcS4_(ImDrawList*, const ImVec2&, ImU32, const char*, const char*);
void __wrap__ZN10ImDrawList7AddTextERK6ImVec2jPKcS4_(ImDrawList* dl, const ImVec2& pos, ImU32 col, const char* b,
                                                     const char* e) {
    __real__ZN10ImDrawList7AddTextERK6ImVec2jPKcS4_(dl, pos, col, b, e);
    after_draw_list_text(dl, nullptr, 0, pos, b, e, 0, nullptr);
}
void __real__ZN10ImDrawList7AddTextEPK6ImFontfRK6ImVec2jPKcS7_fPK6ImVec4(ImDrawList*, const ImFont*, float,
                                                                         const ImVec2&, ImU32, const char*, const char*,
                                                                         float, const ImVec4*);
void __wrap__ZN10ImDrawList7AddTextEPK6ImFontfRK6ImVec2jPKcS7_fPK6ImVec4(ImDrawList* dl, const ImFont* font, float size,
                                                                         const ImVec2& pos, ImU32 col, const char* b,
                                                                         const char* e, float wrap_width,
                                                                         const ImVec4* fine_clip) {
    __real__ZN10ImDrawList7AddTextEPK6ImFontfRK6ImVec2jPKcS7_fPK6ImVec4(dl, font, size, pos, col, b, e, wrap_width,
                                                                        fine_clip);
    after_draw_list_text(dl, font, size, pos, b, e, wrap_width, fine_clip);
}

// ImGui::Text, TextColored, TextWrapped, TextDisabled: formatted text items.
// (A text wholly outside its window is never drawn: only its item shows it.)
void __wrap__ZN5ImGui4TextEPKcz(const char* fmt, ...) {
    va_list args, copy;
    va_start(args, fmt);
    va_copy(copy, args);
    ImGui::TextV(fmt, args);
    after_text(fmt, copy);
    va_end(copy);
    va_end(args);
}
void __wrap__ZN5ImGui11TextColoredERK6ImVec4PKcz(const ImVec4& col, const char* fmt, ...) {
    va_list args, copy;
    va_start(args, fmt);
    va_copy(copy, args);
    ImGui::TextColoredV(col, fmt, args);
    after_text(fmt, copy);
    va_end(copy);
    va_end(args);
}
void __wrap__ZN5ImGui11TextWrappedEPKcz(const char* fmt, ...) {
    va_list args, copy;
    va_start(args, fmt);
    va_copy(copy, args);
    ImGui::TextWrappedV(fmt, args);
    // TextWrapped wraps at the window's edge when no wrap position is pushed.
    const bool pushed = ImGui::GetCurrentWindowRead()->DC.TextWrapPos < 0;
    if (pushed) ImGui::PushTextWrapPos(0);
    after_text(fmt, copy);
    if (pushed) ImGui::PopTextWrapPos();
    va_end(copy);
    va_end(args);
}
void __wrap__ZN5ImGui12TextDisabledEPKcz(const char* fmt, ...) {
    va_list args, copy;
    va_start(args, fmt);
    va_copy(copy, args);
    ImGui::TextDisabledV(fmt, args);
    after_text(fmt, copy);
    va_end(copy);
    va_end(args);
}
void __real__ZN5ImGui15TextUnformattedEPKcS1_(const char*, const char*);
void __wrap__ZN5ImGui15TextUnformattedEPKcS1_(const char* b, const char* e) {
    __real__ZN5ImGui15TextUnformattedEPKcS1_(b, e);
    audit::check_last_item(b, e);
    audit::check_words(b, e);
}

// Buttons: a label wider than its button is cut; a button below a window
// that cannot scroll is not there at all.
bool __real__ZN5ImGui6ButtonEPKcRK6ImVec2(const char*, const ImVec2&);
bool __wrap__ZN5ImGui6ButtonEPKcRK6ImVec2(const char* label, const ImVec2& size) {
    const bool pressed = __real__ZN5ImGui6ButtonEPKcRK6ImVec2(label, size);
    audit::check_last_item(label);
    if (audit::enabled()) audit::check_label_fits(label, ImGui::GetStyle().FramePadding.x);
    return pressed;
}
bool __real__ZN5ImGui11SmallButtonEPKc(const char*);
bool __wrap__ZN5ImGui11SmallButtonEPKc(const char* label) {
    const bool pressed = __real__ZN5ImGui11SmallButtonEPKc(label);
    audit::check_last_item(label);
    return pressed;
}
bool __real__ZN5ImGui8CheckboxEPKcPb(const char*, bool*);
bool __wrap__ZN5ImGui8CheckboxEPKcPb(const char* label, bool* v) {
    const bool changed = __real__ZN5ImGui8CheckboxEPKcPb(label, v);
    audit::check_last_item(label);
    return changed;
}
bool __real__ZN5ImGui11RadioButtonEPKcb(const char*, bool);
bool __wrap__ZN5ImGui11RadioButtonEPKcb(const char* label, bool active) {
    const bool pressed = __real__ZN5ImGui11RadioButtonEPKcb(label, active);
    audit::check_last_item(label);
    return pressed;
}

// Tabs and table headers shorten a label that does not fit with "…".
bool __real__ZN5ImGui12BeginTabItemEPKcPbi(const char*, bool*, ImGuiTabItemFlags);
bool __wrap__ZN5ImGui12BeginTabItemEPKcPbi(const char* label, bool* open, ImGuiTabItemFlags flags) {
    const bool shown = __real__ZN5ImGui12BeginTabItemEPKcPbi(label, open, flags);
    if (audit::enabled()) audit::check_label_fits(label, ImGui::GetStyle().FramePadding.x);
    return shown;
}
}  // extern "C"
