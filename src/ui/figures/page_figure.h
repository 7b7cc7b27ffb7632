// A Questions page as a PNG figure: the page drawn offscreen by Dear ImGui in
// a context of its own, the same drawing as the tab's (draw_question_page),
// under a caption naming the model, the photo and the selection. The window's
// Export figure button and `vitscope explain -o` both make it this way, so one
// state gives one picture.
#pragma once
#include <string>
#include <vector>

#include "gfx/png_writer.h"
#include "gfx/rgba_image.h"
#include "session/dispatch/requests.h"
#include "session/state/app_state.h"

namespace ui {

struct PageFigure {
    gfx::RgbaImage image;
    // Title (the page's question), Description (the caption: model, photo,
    // layer, head, query), Software, "vitscope:question" (the page's name) and
    // "vitscope:cells" (JSON: where the page coloured cells from numbers, session/base/drawn_report.h).
    std::vector<gfx::PngText> metadata;
    // Experiments the page asked for (experiment_controls) whose results were
    // not in s.experiments: the picture shows them as not run. Run them, put
    // their results in s.experiments.results and draw again for the whole page.
    std::vector<session::cmd::RunExperiment> missing;
};

// Draws the page called `page` for the state s (its loaded model, photo and
// trace, its selection and style; the tab and hover are ignored). Needs a
// current OpenGL 3.3 context; leaves its GL state and ImGui's current context
// as they were. Throws vit::Error for a page the window does not have, or
// when no model has run on a photo yet.
PageFigure render_page_figure(const session::AppState& s, const std::string& page);

}  // namespace ui
