// What File > Export figure and F12 write: the figure of the current map via
// gfx::export_figure, and the whole window as the GPU drew it. Default names
// describe the content (dog_L8_H1_r5c7.png) and never replace a file.
#pragma once
#include <string>

#include "session/state/app_state.h"
#include "vit/base/output_file.h"

namespace app {

// dir/stem.ext, or dir/stem_2.ext, _3, ... : the first that does not exist.
std::string unique_path(const std::string& dir, const std::string& stem, const std::string& ext);

// The path as the status line names what was saved: absolute, normalised.
// In the browser, what was saved is offered as a download too (offer_download).
std::string deliver_saved(const std::string& path);

// Reads the default framebuffer's back buffer (call after rendering, before
// the swap) and writes it as PNG. Throws vit::Error.
void save_window_png(const std::string& path, int fb_width, int fb_height, const vit::OutputRules& rules);

// The current map as the figure the command line's `vitscope export` makes.
// Needs the window's GL context. Throws vit::Error.
void save_figure_png(const session::AppState& s, const std::string& path, const vit::OutputRules& rules);

}  // namespace app
