#include "ui/widgets/number_table.h"

#include <cstdarg>
#include <cstdio>

namespace ui {

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
    // Fixed number columns leave the rest to the label; otherwise every column
    // takes the table's own sizing policy.
    ImGui::TableSetupColumn(label, widest ? ImGuiTableColumnFlags_WidthStretch : 0);
    for (const char* header : numbers)
        ImGui::TableSetupColumn(header, widest ? ImGuiTableColumnFlags_WidthFixed : 0, number_width);
    if (headers) ImGui::TableHeadersRow();
}

NumberTable::~NumberTable() {
    if (open_) ImGui::EndTable();
}

void NumberTable::row(const char* label, std::optional<ImVec4> colour) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    if (colour) ImGui::PushStyleColor(ImGuiCol_Text, *colour);
    if (wrap_labels_) ImGui::TextWrapped("%s", label);
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
