// A table of labelled numbers, as the math panel and the Questions pages print
// them: a first column that names each row (wrapped text, or a selectable that
// spans the row) and then columns of numbers in the mono font, so digits line up.
#pragma once
#include <initializer_list>
#include <optional>

#include "ui/widgets/frame.h"

namespace ui {

class NumberTable {
public:
    // label: the first column's header; numbers: the number columns' headers.
    // widest: a number as wide as the widest (in mono), which fixes the number
    // columns' width; null: they stretch with the table. headers: draw the
    // header row. width: the table's, 0 for the whole line.
    NumberTable(const Frame& f, const char* id, const char* label, std::initializer_list<const char*> numbers,
                ImGuiTableFlags flags = ImGuiTableFlags_RowBg, const char* widest = nullptr, bool headers = true,
                float width = 0);
    ~NumberTable();
    NumberTable(const NumberTable&) = delete;
    NumberTable& operator=(const NumberTable&) = delete;

    // False when ImGui clipped the whole table: draw no rows.
    explicit operator bool() const { return open_; }
    // Starts a row named by its label, in colour when one is given. With fixed
    // number columns the label wraps in the width left; otherwise it sizes
    // its column (a stretching table measures its columns by their text).
    void row(const char* label, std::optional<ImVec4> colour = {});
    // Starts a row named by a selectable spanning the row; true when clicked.
    bool selectable_row(const char* label, bool selected);
    // The row's next number.
    __attribute__((format(printf, 2, 3))) void number(const char* format, ...);

private:
    const Frame& f_;
    bool wrap_labels_;
    bool open_ = false;
};

}  // namespace ui
