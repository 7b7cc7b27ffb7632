// A guided tour as a slide deck: every step as a PNG of the window drawn
// offscreen at that step (its card holds the step's text, no buttons), an
// index.html showing them in order with their captions as text, and
// claims.csv: one row per claim a step checks on this photo
// (step,claim,layer,head,query,value,baseline,holds; step counts from 1,
// query is the token index, value and baseline are shares, holds 1 or 0). `vitscope tour` and the window's File > Export tour
// as slides both make it here.
#pragma once
#include <filesystem>

#include "session/state.h"
#include "vit/base/output_file.h"

namespace app {

constexpr int kSlideWidth = 1920, kSlideHeight = 1080;

// s holds the tour (s.tour) and the photo and model it runs on; dir must not
// exist yet (refused when it does). Written as a vit::OutputFolder: a
// temporary folder of this run's, renamed to dir once complete (removed on
// failure or SIGINT/SIGTERM). Needs a current OpenGL 3.3 context. Throws vit::Error.
void write_tour_slides(session::AppState s, const std::filesystem::path& dir, const vit::OutputRules& rules);

}  // namespace app
