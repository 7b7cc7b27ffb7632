#include "ui/widgets/imgui_helpers.h"

#include <algorithm>
#include <cmath>
#include <cfloat>
#include <cstdio>
#include <utility>

#include <imgui_internal.h>  // the table column a header row sizes

#include "ui/widgets/bounded_text.h"
#include "ui/widgets/theme.h"
#include "vit/base/printable.h"

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
    const std::string error = bounded(vit::printable(f.s.last_error));  // it may quote a path or a file's contents
    ImGui::PushStyleColor(ImGuiCol_ChildBg, colors::error_bg);
    const float wrap = ImGui::GetContentRegionAvail().x - f.px(110);
    const ImVec2 text = ImGui::CalcTextSize(error.c_str(), nullptr, false, wrap);
    const float h = std::max(ImGui::GetFrameHeight(), text.y) + f.px(12);
    if (ImGui::BeginChild("##error", ImVec2(0, h), false, ImGuiWindowFlags_NoScrollbar)) {
        ImGui::SetCursorPos(ImVec2(f.px(8), f.px(6)));
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
        ImGui::TextColored(colors::error_text, "%s", error.c_str());
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
float drawn_size(const ImFont* font) { return font->FontSize * font->Scale * ImGui::GetIO().FontGlobalScale; }

std::vector<std::string> wrapped_lines(const std::string& text, const ImFont* font, float width) {
    const auto measure = [&](const std::string& t) {
        return font->CalcTextSizeA(drawn_size(font), FLT_MAX, 0, t.c_str()).x;
    };
    const float space = measure(" ");
    std::vector<std::string> lines;
    std::string line;
    float line_width = 0;
    size_t from = 0;
    while (from < text.size()) {
        const size_t to = std::min(text.find_first_of(" \n", from), text.size());
        const std::string word = text.substr(from, to - from);
        const float w = measure(word);
        if (!line.empty() && line_width + space + w > width) {
            lines.push_back(std::move(line));
            line.clear();
            line_width = 0;
        }
        line_width += (line.empty() ? 0 : space) + w;
        line += (line.empty() ? "" : " ") + word;
        if (to < text.size() && text[to] == '\n') {  // a line break of the text's own
            lines.push_back(std::move(line));
            line.clear();
            line_width = 0;
        }
        from = to + 1;
    }
    if (!line.empty()) lines.push_back(std::move(line));
    return lines;
}

void text_wrapped_at_spaces(const ImVec4& colour, const char* text, float width) {
    if (width <= 0) width = ImGui::GetContentRegionAvail().x;
    ImGui::BeginGroup();  // the lines start where the first does (after SameLine too), and hover as one item
    for (const std::string& line : wrapped_lines(text, ImGui::GetFont(), width))
        ImGui::TextColored(colour, "%s", line.c_str());
    ImGui::EndGroup();
}

void text_wrapped_at_spaces(const char* text, float width) {
    text_wrapped_at_spaces(ImGui::GetStyleColorVec4(ImGuiCol_Text), text, width);
}

void text_in_cell(const ImVec4& colour, const std::string& text) {
    const float width = ImGui::GetContentRegionAvail().x;
    const ImFont* font = ImGui::GetFont();
    const auto measure = [&](const std::string& s) {
        return font->CalcTextSizeA(drawn_size(font), FLT_MAX, 0, s.c_str()).x;
    };
    ImGui::BeginGroup();
    for (std::string line : wrapped_lines(text, font, width)) {
        if (measure(line) > width) {  // one word alone on its line, too wide: cut at a character boundary
            while (!line.empty() && measure(line + "…") > width) {
                line.pop_back();
                while (!line.empty() && (static_cast<unsigned char>(line.back()) & 0xC0) == 0x80) line.pop_back();
            }
            line += "…";
        }
        ImGui::TextColored(colour, "%s", line.c_str());
    }
    ImGui::EndGroup();
}

void wrapped_headers_row() {
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    ImGuiTable* table = ImGui::GetCurrentTable();
    for (int c = 0; c < ImGui::TableGetColumnCount(); ++c) {
        if (!ImGui::TableSetColumnIndex(c)) continue;
        const char* name = ImGui::TableGetColumnName(c);
        const float one_line = ImGui::CalcTextSize(name).x;
        ImGui::PushID(c);
        // A table that scrolls sideways gives each column its name's width.
        if (one_line <= ImGui::GetContentRegionAvail().x || (table->Flags & ImGuiTableFlags_ScrollX)) {
            ImGui::TableHeader(name);  // ImGui's own, which also sizes the column by its name
        } else {
            // Wrapped; the name's one-line width still counts as the column's
            // ideal width, as TableHeader's does.
            ImGuiTableColumn& column = table->Columns[c];
            column.ContentMaxXHeadersIdeal =
                std::max(column.ContentMaxXHeadersIdeal, ImGui::GetCursorScreenPos().x + one_line);
            text_wrapped_at_spaces(name);
        }
        ImGui::PopID();
    }
}

void same_line_if_fits(float width) {
    const float right = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width;
    if (right <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) ImGui::SameLine();
}

float check_width(const char* label) {
    return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
}

float button_width(const char* label) { return ImGui::CalcTextSize(label).x + 2 * ImGui::GetStyle().FramePadding.x; }

namespace {
float key_cap_pad() { return std::round(ImGui::GetFontSize() * 0.3f); }
}  // namespace

float key_caps_width(const std::vector<const char*>& keys) {
    const float gap = ImGui::GetStyle().ItemInnerSpacing.x;
    float w = 0;
    for (const char* k : keys) w += (w > 0 ? gap : 0) + ImGui::CalcTextSize(k).x + 2 * key_cap_pad();
    return w;
}

void key_caps(const std::vector<const char*>& keys) {
    const float pad = key_cap_pad(), gap = ImGui::GetStyle().ItemInnerSpacing.x, h = ImGui::GetFrameHeight();
    const ImU32 colour = ImGui::GetColorU32(colors::muted);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (size_t i = 0; i < keys.size(); ++i) {
        if (i > 0) ImGui::SameLine(0, gap);
        const ImVec2 p = ImGui::GetCursorScreenPos(), ts = ImGui::CalcTextSize(keys[i]);
        const ImVec2 size(ts.x + 2 * pad, h);
        dl->AddRect(ImVec2(p.x + 0.5f, p.y + 0.5f), ImVec2(p.x + size.x - 0.5f, p.y + size.y - 0.5f), colour,
                    std::round(pad * 0.7f), 0, std::max(1.f, std::round(ImGui::GetFontSize() / 15)));
        dl->AddText(ImVec2(p.x + pad, p.y + (h - ts.y) * 0.5f), colour, keys[i]);
        ImGui::Dummy(size);
    }
}

session::PageTarget last_item_target(std::string name) {
    const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
    return {std::move(name), (lo.x + hi.x) * 0.5f, (lo.y + hi.y) * 0.5f};
}

std::string first_that_fits(const std::vector<std::string>& names, float width) {
    for (const std::string& name : names)
        if (ImGui::CalcTextSize(name.c_str()).x <= width) return name;
    return names.back();
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

void map_corner_label(const Frame& f, ImDrawList* dl, ImVec2 origin, float height, ImU32 colour, const char* label) {
    const ImVec2 ls = ImGui::CalcTextSize(label);
    const ImVec2 lp(origin.x + f.px(4), origin.y + height - ls.y - f.px(4));
    dl->AddRectFilled(ImVec2(lp.x - f.px(3), lp.y - f.px(1)), ImVec2(lp.x + ls.x + f.px(3), lp.y + ls.y + f.px(1)),
                      IM_COL32(0, 0, 0, 170), f.px(3));
    dl->AddText(lp, colour, label);
}

}  // namespace ui
