// ImGui's frame into the bound framebuffer (the window's or an offscreen
// one), over the panels' colour.
#pragma once

namespace ui {

// Clears the bound framebuffer to ImGui's WindowBg and draws the frame's draw
// data over it. The main panels draw no background of their own (the fill
// cost llvmpipe a second pass over the window), so this clear is their
// background: every picture of them goes through here.
void draw_frame_over_panel_colour();

}  // namespace ui
