// The Learning lab's timeline as slides (`vitscope lab RUN -o DIR`): the lab
// drawn offscreen as the window draws it at each checkpoint of a run, on one
// held-out sample and query: timeline.gif, every checkpoint in step order;
// a PNG per chosen checkpoint (step_NNNNNN.png: the first, the one where the
// chosen head first singles out the task's squares, the one where the
// accuracy first passes 0.9, the last; or those asked for), each with the
// lab's sentences as its description; and index.html, a slide deck with the
// sentences as captions (slide_deck.h). DIR is written whole or not at all.
#pragma once
#include <filesystem>
#include <vector>

#include "app/gui/tour_slides.h"
#include "session/state/app_state.h"
#include "vit/base/output_file.h"

namespace app {

struct LabSlideChoice {
    int sample = 0;
    int query = 0;           // session::kQuerySquare1 .. kQueryCls
    std::vector<int> steps;  // the checkpoints for PNGs (the last at or before each); empty: the lab's four
};

// s: a state with a model run on a photo (render_window needs one); the run is opened in its lab. Needs a current
// OpenGL 3.3 context. Throws vit::Error.
void write_lab_slides(session::AppState s, const std::string& run, const LabSlideChoice& choice,
                      const std::filesystem::path& dir, const vit::OutputRules& rules, SlideSize size = {});

}  // namespace app
