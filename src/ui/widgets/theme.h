// The window's look: a dark theme with one accent colour, sizes scaled for HiDPI.
#pragma once
#include <imgui.h>

namespace ui {

void apply_theme(float scale);

// Colours used across panels, so the same thing looks the same everywhere.
namespace colors {
inline const ImVec4 accent{0.35f, 0.65f, 1.00f, 1.f};     // the selected query, links
inline const ImVec4 pinned{1.00f, 0.62f, 0.05f, 1.f};     // the pinned key (as the shader draws it)
inline const ImVec4 muted{0.62f, 0.64f, 0.68f, 1.f};      // plain-language explanations
inline const ImVec4 error{1.00f, 0.42f, 0.38f, 1.f};
inline const ImVec4 ok{0.45f, 0.85f, 0.50f, 1.f};
inline const ImVec4 whatif{1.00f, 0.66f, 0.20f, 1.f};     // everything counterfactual
inline const ImVec4 whatif_bg{0.36f, 0.22f, 0.05f, 1.f};
}  // namespace colors

}  // namespace ui
