// ImGui helpers several panels use: hover help, the error banner, step
// headings, toolbars that reflow, the what-if badge.
#pragma once
#include <string>
#include <vector>

#include "ui/widgets/frame.h"

namespace ui {

// Shows text as a tooltip when the last item is hovered.
void tooltip(const char* text);

// The last error in a red box with a Dismiss button; nothing when there is none.
void error_banner(const Frame& f);

// A numbered step heading ("3  Score") with a plain-language line under it.
void step_heading(const Frame& f, const char* number, const char* title, const char* plain);

// The height `font` is drawn at, in the layout's pixels: its rasterised size
// times its scale and the UI's (1 / the framebuffer density: a figure's or a
// HiDPI window's fonts are rasterised larger and drawn scaled down).
float drawn_size(const ImFont* font);
// The lines of `text` in `font` at most `width` wide, broken at spaces only
// (ImGui's own wrapping also breaks after '.', which splits numbers: "0." / "2%").
std::vector<std::string> wrapped_lines(const std::string& text, const ImFont* font, float width);
// Text wrapped at the content region's edge (or `width` when given), at spaces only;
// in the text colour when no colour is given.
void text_wrapped_at_spaces(const ImVec4& colour, const char* text, float width = 0);
void text_wrapped_at_spaces(const char* text, float width = 0);
// The same for a table cell, where a word wider than the cell (a long class
// name) is shortened with "…"; the caller's tooltip carries it whole.
void text_in_cell(const ImVec4& colour, const std::string& text);

// The current table's header row, each name wrapped at spaces inside its
// column when it is wider (ImGui's TableHeadersRow cuts it); a table that
// scrolls sideways widens the column instead.
void wrapped_headers_row();

// Continues the current line when an item `width` wide still fits, else
// starts a new one: toolbars that reflow on narrow windows.
void same_line_if_fits(float width);
// The width of a checkbox or radio button with this label.
float check_width(const char* label);
// The width of a button with this label.
float button_width(const char* label);
// The last item's centre under `name`: where a test clicks it (the state file's drawn targets).
session::PageTarget last_item_target(std::string name);

// The first of `names` that is at most `width` wide, else the last: a label
// that shortens to fit what it names.
std::string first_that_fits(const std::vector<std::string>& names, float width);

// Keyboard keys written as keys: each name in a box, as on a keyboard (a
// hint such as "(keys , and .)" read as punctuation). key_caps_width: the
// row's width, for same_line_if_fits.
float key_caps_width(const std::vector<const char*>& keys);
void key_caps(const std::vector<const char*>& keys);

// The orange label every what-if carries.
void whatif_badge(const Frame& f, const char* text);

// Names what is drawn over a map (the class's marks, not the model's
// numbers): `label` in `colour` on a dark plate in the map's bottom-left
// corner; `origin` is the map's top-left corner and `height` its height.
void map_corner_label(const Frame& f, ImDrawList* dl, ImVec2 origin, float height, ImU32 colour, const char* label);

}  // namespace ui
