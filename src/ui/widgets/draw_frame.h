// ImGui's frame into the bound framebuffer (the window's or an offscreen
// one), over the panels' colour.
#pragma once
#include "gfx/rgba_image.h"

namespace ui {

// Clears the bound framebuffer to ImGui's WindowBg and draws the frame's draw
// data over it. The main panels draw no background of their own (the fill
// cost llvmpipe a second pass over the window), so this clear is their
// background: every picture of them goes through here.
void draw_frame_over_panel_colour();

// The same frame drawn into an offscreen target of width x height pixels and
// read back, opaque as on screen: every exported picture of panels (figures,
// slides) is taken here.
gfx::RgbaImage read_back_frame(int width, int height);

}  // namespace ui
