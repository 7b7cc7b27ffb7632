// Figures meant for print and slides (page_figure.h) say what is shown, not
// what to click: a page drawn for print leaves out the sentences that tell the
// mouse or keyboard what to do, and shows its controls' values as text.
#pragma once
#include <string>

namespace ui {

// `text` without its sentences (and parentheses) that are instructions to
// click, hover, drag or press; what remains keeps its order and spacing.
std::string without_mouse_hints(const std::string& text);

// Whether the frame being drawn is a figure for print (inside a PrintScope).
bool drawing_for_print();

// Marks the frames drawn while it lives as drawn for print.
class PrintScope {
public:
    PrintScope();
    ~PrintScope();
    PrintScope(const PrintScope&) = delete;
    PrintScope& operator=(const PrintScope&) = delete;

private:
    bool was_;
};

}  // namespace ui
