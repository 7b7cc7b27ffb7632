// Small pieces several panels use: hover help, the error banner, step headings.
#pragma once
#include <string>

#include "frame.h"

namespace ui {

// Shows text as a tooltip when the last item is hovered.
void tooltip(const char* text);

// The last error in a red box with a Dismiss button; nothing when there is none.
void error_banner(const Frame& f);

// A numbered step heading ("3  Score") with a plain-language line under it.
void step_heading(const Frame& f, const char* number, const char* title, const char* plain);

// Continues the current line when an item `width` wide still fits, else
// starts a new one: toolbars that reflow on narrow windows.
void same_line_if_fits(float width);
// The width of a checkbox or radio button with this label.
float check_width(const char* label);

// The orange label every what-if carries.
void whatif_badge(const Frame& f, const char* text);

// A number with 5 significant digits, in scientific notation when tiny or
// huge, so 0.00009 never reads as 0.00009 when it is 8.7654e-05.
std::string num(double v);

// Subscripted names as the math panel writes them.
namespace sym {
inline constexpr const char* q_i = "qᵢ";
inline constexpr const char* k_j = "kⱼ";
inline constexpr const char* v_j = "vⱼ";
inline constexpr const char* o_i = "oᵢ";
inline constexpr const char* s_ij = "sᵢⱼ";
inline constexpr const char* a_ij = "aᵢⱼ";
inline constexpr const char* sqrt_dk = "√dₖ";
inline constexpr const char* d_k = "dₖ";
}  // namespace sym

}  // namespace ui
