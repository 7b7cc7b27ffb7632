#include "ui/widgets/imgui_helpers.h"

#include <algorithm>
#include <cmath>
#include <cfloat>
#include <cstdio>

#include "ui/widgets/theme.h"

namespace ui {

void tooltip(const char* text) {
    if (!ImGui::IsItemHovered()) return;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

void error_banner(const Frame& f) {
    if (f.s.last_error.empty()) return;
    ImGui::PushStyleColor(ImGuiCol_ChildBg, colors::error_bg);
    const float wrap = ImGui::GetContentRegionAvail().x - f.px(110);
    const ImVec2 text = ImGui::CalcTextSize(f.s.last_error.c_str(), nullptr, false, wrap);
    const float h = std::max(ImGui::GetFrameHeight(), text.y) + f.px(12);
    if (ImGui::BeginChild("##error", ImVec2(0, h), false, ImGuiWindowFlags_NoScrollbar)) {
        ImGui::SetCursorPos(ImVec2(f.px(8), f.px(6)));
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
        ImGui::TextColored(colors::error_text, "%s", f.s.last_error.c_str());
        ImGui::PopTextWrapPos();
        ImGui::SameLine(ImGui::GetWindowWidth() - f.px(90));
        ImGui::SetCursorPosY(f.px(6));
        if (ImGui::Button("Dismiss")) f.emit(session::act::DismissError{});
    }
    ImGui::EndChild();
    ImGui::PopStyleColor();
}

// The lines of `text` in `font` at most `width` wide. Wraps at spaces only:
// ImGui's own wrapping also breaks after a '.', which splits numbers ("0." / "2%").
std::vector<std::string> wrapped_lines(const std::string& text, const ImFont* font, float width) {
    const auto measure = [&](const std::string& t) { return font->CalcTextSizeA(font->FontSize, FLT_MAX, 0, t.c_str()).x; };
    const float space = measure(" ");
    std::vector<std::string> lines;
    std::string line;
    float line_width = 0;
    size_t from = 0;
    while (from < text.size()) {
        size_t to = text.find(' ', from);
        if (to == std::string::npos) to = text.size();
        const std::string word = text.substr(from, to - from);
        const float w = measure(word);
        if (!line.empty() && line_width + space + w > width) {
            lines.push_back(std::move(line));
            line.clear();
            line_width = 0;
        }
        line_width += (line.empty() ? 0 : space) + w;
        line += (line.empty() ? "" : " ") + word;
        from = to + 1;
    }
    if (!line.empty()) lines.push_back(std::move(line));
    return lines;
}

void text_wrapped_at_spaces(const ImVec4& colour, const char* text) {
    const float width = ImGui::GetContentRegionAvail().x;
    for (const std::string& line : wrapped_lines(text, ImGui::GetFont(), width)) ImGui::TextColored(colour, "%s", line.c_str());
}

void same_line_if_fits(float width) {
    const float right = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width;
    if (right <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) ImGui::SameLine();
}

float check_width(const char* label) {
    return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
}

void step_heading(const Frame& f, const char* number, const char* title, const char* plain) {
    ImGui::Spacing();
    ImGui::PushFont(f.fonts.title);
    ImGui::TextColored(colors::accent, "%s", number);
    ImGui::SameLine();
    ImGui::TextUnformatted(title);
    ImGui::PopFont();
    if (plain && *plain) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(colors::muted, "%s", plain);
        ImGui::PopTextWrapPos();
    }
}

void whatif_badge(const Frame& f, const char* text) {
    ImGui::PushFont(f.fonts.bold);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const ImVec2 ts = ImGui::CalcTextSize(text);
    const float pad = f.px(4);
    ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + ts.x + 2 * pad, p.y + ts.y + pad),
                                              ImGui::GetColorU32(colors::whatif_bg), f.px(3));
    ImGui::SetCursorScreenPos(ImVec2(p.x + pad, p.y + pad * 0.5f));
    ImGui::TextColored(colors::whatif, "%s", text);
    ImGui::PopFont();
}

}  // namespace ui
