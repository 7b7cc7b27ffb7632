// Lesson files (*.vitscope): the whole window as a teacher left it, prepared
// the evening before and opened in class. A small JSON object:
//   {"vitscope_lesson": 1,
//    "photo": "/path/dog.jpg", "photo_embedded": "<base64 of the file>" (optional),
//    "model": "/path/model-folder", "input_size": 224,
//    "layer": 8, "head": 1, "visible_heads": [0, 1, 2], "map": "head" | "mean",
//    "query": 82, "pinned_key": -1,
//    "tab": "math" | "whatifs" | "questions", "question": "scaling",
//    "classroom": false, "math_step": 1,
//    "compare_photo": "/path/cat.png" | "",
//    "style": {"colormap": "viridis", "normalization": "row-max", "opacity": 0.6,
//              "fade": true, "bilinear": true, "grid": true},
//    "temperature": 1.0}
// Relative paths are read from the lesson file's folder; a path that is not
// UTF-8 is written {"path_bytes": "<base64>"} (json_path.h). Every field is
// required and checked: a lesson that opens must open exactly as saved.
#pragma once
#include <optional>
#include <string>

#include "session/base/selection_json.h"
#include "session/state/app_state.h"
#include "vit/base/output_file.h"

namespace session {

inline constexpr int kLessonVersion = 1;

struct Lesson {
    std::string photo;           // absolute once read
    std::string photo_embedded;  // the photo file's bytes (decoded); empty: not embedded
    std::string model;
    int input_size = 0;        // the model input's side the trace was run at
    SavedSelection selection;  // layer, head, visible heads, map, query, pinned key
    AppState::Tab tab = AppState::Tab::Math;
    std::string question = "scaling";
    bool classroom = false;
    int math_step = 1;
    std::string compare_photo;  // empty: none
    gfx::OverlayStyle style;
    float temperature = 1.f;
};

// The lesson of what the window shows. Throws vit::Error when nothing has run yet.
Lesson lesson_from_state(const AppState& s);

// The file's text; embed: the photo's bytes go in too (read from its path).
// Throws vit::Error when the photo cannot be read for embedding.
std::string lesson_json(const Lesson& lesson, bool embed);

// Reads a lesson file. Throws vit::Error, one line naming the file and what is
// wrong: not JSON, not a lesson, a newer version, a field missing or of the
// wrong type or out of range (as written), a photo (unless embedded) or
// comparison photo that is missing or no regular file (named as what it is),
// a model folder --model would refuse (vit::check_model_folder).
Lesson read_lesson(const std::string& path);

// Writes a lesson file whole or not at all, by the output rule (never over
// the open photo or model; an existing file only when rules.force).
void save_lesson(const std::string& path, const AppState& s, bool embed, const vit::OutputRules& rules);

// Where an embedded photo goes when its path is missing on this machine:
// a file named after its bytes in the user's cache folder. Throws vit::Error,
// also when the bytes do not decode as a photo (nothing is written then).
std::string unpack_embedded_photo(const Lesson& lesson);

// Applying a lesson to the state once its model and photo have run is
// dispatch/apply_lesson.h's: it goes through every room's actions.

// Whether PATH names a lesson file (ends in .vitscope, any case).
bool is_lesson_path(const std::string& path);

}  // namespace session
