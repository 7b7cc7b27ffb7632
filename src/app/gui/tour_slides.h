// A guided tour as a slide deck: every step as a PNG of the window drawn
// offscreen at that step (its card holds the step's text, no buttons; no
// menu or status bar), an index.html slide deck (slide_deck.h), and
// claims.csv: one row per claim a step checks on this photo
// (step,claim,layer,head,query,value,baseline,holds; step counts from 1,
// query is the token index, value and baseline are shares, holds 1 or 0). `vitscope tour` and the window's File >
// Export tour as slides both make it here.
#pragma once
#include <filesystem>

#include "session/state/app_state.h"
#include "vit/base/output_file.h"

namespace app {

constexpr int kSlideWidth = 1920, kSlideHeight = 1080;
// Classroom slides (s.classroom) are drawn with classroom mode's type and lines, as the window's.
constexpr float kClassroomSlideScale = 1.5f;
// Slides of up to 8K: larger ones would be a picture no projector shows, at gigabytes of memory.
constexpr int kMaxSlideSide = 7680;

struct SlideSize {
    int width = kSlideWidth, height = kSlideHeight;
};
// The size a slide has unless asked otherwise: 1280 x 720 in classroom mode (a lecture hall's projector), else 1920 x
// 1080.
SlideSize slide_size(bool classroom);

// s holds the tour (s.tour) and the photo and model it runs on; dir must not
// exist yet (refused when it does). Written as a vit::OutputFolder: a
// temporary folder of this run's, renamed to dir once complete (removed on
// failure or SIGINT/SIGTERM). Needs a current OpenGL 3.3 context. Throws vit::Error.
// s.classroom: the slides as classroom mode draws the window. No menu or status bar on any slide.
void write_tour_slides(session::AppState s, const std::filesystem::path& dir, const vit::OutputRules& rules,
                       SlideSize size = {});

}  // namespace app
