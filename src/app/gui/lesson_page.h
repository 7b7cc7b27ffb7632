// The lesson page: one self-contained HTML file (no network, nothing
// external; it opens from file://) that recomputes the open photo's
// attention in a student's browser. The page's HTML, CSS and JavaScript are
// files of the project (web/lesson/); this fills them with the photo (the
// model input's crop, JPEG), the model's and photo's names, the top-5
// classes, every layer's and head's q, k and v as 16-bit floats (base64) and,
// when given, the tour's text as the window would show it on this photo.
#pragma once
#include <cstddef>
#include <string>

#include "session/homework/exercises.h"
#include "session/state/app_state.h"
#include "session/tour/tour.h"
#include "vit/image/image.h"
#include "vit/image/preprocess.h"

namespace app {

// Where web/lesson's files are: $VITSCOPE_WEB_DIR, else share/vitscope/web
// beside an installed binary, else the source tree's web/ (a build).
std::string lesson_web_dir();

// Pages over this are refused: a browser holds the page's text, its decoded
// bytes and the floats at once.
constexpr size_t kMaxLessonBytes = 128u << 20;

// The page for the photo, model and input size the state holds (its
// selection is where the page starts). `tour` may be null. Throws vit::Error
// when the page's files are missing, a value does not fit a 16-bit float,
// or the page would exceed kMaxLessonBytes.
//
// `exercises` (may be null) adds the homework: each exercise's setting as
// answer_exercises resolves it on this photo (kind, layer, head, query, the
// pinned key, the filled text, tolerance or ratio, a choice's options and
// answer) but never the model's answer to a computed kind: the page computes
// that itself from its q and k. Throws vit::Error as answer_exercises does.
// File > Export homework (issue 35, item 4) can call this as the CLI does.
// `handout` names the student the page is for (shown on it, written into the
// hand-in, which cannot then be renamed) and the variant of the exercises it
// holds (variants.h); empty: anyone's page, variant 1.
struct Handout {
    std::string student;
    int variant = 1;
};
std::string lesson_page_html(const session::AppState& s, const session::Tour* tour,
                             const session::ExerciseSet* exercises = nullptr, const Handout& handout = {});

// The model input's crop of the photo, square, at most 512 px a side (the
// lesson page's photo; the worksheet's too), and as a JPEG data: URI.
vit::Image photo_crop_square(const vit::Image& image, const vit::CropRect& crop, int input_size);
std::string photo_jpeg_data_uri(const vit::Image& image, const vit::CropRect& crop, int input_size);

// Checks the page's files can be read before any heavy work; throws vit::Error.
void check_lesson_files();

}  // namespace app
