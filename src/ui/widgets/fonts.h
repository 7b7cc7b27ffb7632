// DejaVu fonts with the glyphs the math panel writes (√ Σ · ⊙ ≈ subscripts,
// Greek), at the window's HiDPI scale; ImGui's built-in font when DejaVu is
// not installed (the math then shows as '?').
#pragma once
#include <string>

#include "ui/widgets/frame.h"

namespace ui {

// The regular text size in window coordinates at UI scale 1: the window and
// the figures drawn offscreen from its panels use the same.
inline constexpr float kFontSize = 15;

// Clears the atlas and adds the fonts. size_px: the regular size in window
// coordinates; fb_scale: framebuffer pixels per window coordinate (fonts are
// rasterised at that density and drawn scaled back). Returns the fonts; sets
// `warning` when falling back. Call before the backend builds the font texture.
Fonts load_fonts(float size_px, float fb_scale, std::string& warning);

}  // namespace ui
