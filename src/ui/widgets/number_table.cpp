#include "ui/widgets/number_table.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <string>

#include "ui/widgets/figure_probe.h"
#include "ui/widgets/imgui_helpers.h"

namespace ui {
namespace {

float longest_word(const std::string& text) {
    float widest = 0;
    for (size_t from = 0; from < text.size();) {
        const size_t to = std::min(text.find(' ', from), text.size());
        widest = std::max(widest, ImGui::CalcTextSize(text.substr(from, to - from).c_str()).x);
        from = to + 1;
    }
    return widest;
}

}  // namespace

NumberTable::NumberTable(const Frame& f, const char* id, const char* label, std::initializer_list<const char*> numbers,
                         ImGuiTableFlags flags, const char* widest, bool headers, float width)
    : f_(f), wrap_labels_(widest != nullptr) {
    open_ = ImGui::BeginTable(id, 1 + static_cast<int>(numbers.size()), flags, ImVec2(width, 0));
    if (!open_) return;
    float number_width = 0;
    if (widest) {
        ImGui::PushFont(f.fonts.mono);
        number_width = ImGui::CalcTextSize(widest).x;
        ImGui::PopFont();
    }
    // Fixed number columns leave the rest to the label, each at least as wide
    // as its header's longest word (the header wraps between words); otherwise
    // every column takes the table's own sizing policy.
    ImGui::TableSetupColumn(label, widest ? ImGuiTableColumnFlags_WidthStretch : 0);
    for (const char* header : numbers)
        ImGui::TableSetupColumn(header, widest ? ImGuiTableColumnFlags_WidthFixed : 0,
                                widest ? std::max(number_width, longest_word(header)) : 0.f);
    if (headers) wrapped_headers_row();
}

NumberTable::~NumberTable() {
    if (open_) end_figure_table();
}

void NumberTable::row(const char* label, std::optional<ImVec4> colour) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    if (colour) ImGui::PushStyleColor(ImGuiCol_Text, *colour);
    if (wrap_labels_) text_wrapped_at_spaces(label);
    else ImGui::TextUnformatted(label);
    if (colour) ImGui::PopStyleColor();
}

bool NumberTable::selectable_row(const char* label, bool selected) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    return ImGui::Selectable(label, selected, ImGuiSelectableFlags_SpanAllColumns);
}

void NumberTable::number(const char* format, ...) {
    ImGui::TableNextColumn();
    char text[64];
    va_list args;
    va_start(args, format);
    std::vsnprintf(text, sizeof text, format, args);
    va_end(args);
    ImGui::PushFont(f_.fonts.mono);
    ImGui::TextUnformatted(text);
    ImGui::PopFont();
}

}  // namespace ui
