#include "app/gui/lesson_page.h"

#include <stb/stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/gui/html_escaped.h"
#include "app/resource_paths.h"
#include "session/dispatch/requests.h"
#include "session/base/selection_json.h"
#include "session/homework/handin.h"
#include "session/tour/tour_query.h"
#include "session/tour/tour_text.h"
#include "vit/base/base64.h"
#include "vit/base/error.h"
#include "vit/base/install_dir.h"
#include "vit/base/read_file.h"
#include "vit/forward/classes.h"
#include "vit/forward/half_tokens.h"
#include "vit/forward/token_name.h"
#include "vit/image/preprocess.h"

namespace app {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kMaxPhotoSide = 512;  // enough for a laptop's or phone's column; the grid is 14-40 patches
constexpr int kJpegQuality = 90;

std::string read_part(const std::string& name) {
    const fs::path path = fs::path(lesson_web_dir()) / "lesson" / name;
    try {
        return vit::read_whole_file(path.string(), 1ULL << 20, "a lesson page file");
    } catch (const vit::Error& e) {
        throw vit::Error(std::string(e.what()) + " (set VITSCOPE_WEB_DIR to the web folder)");
    }
}

struct Fill {
    std::string marker, text;
};

// The template with each marker replaced, in one pass over the template: a
// marker inside a filled text (a photo named "{{LESSON_DATA}}.jpg", a label
// holding "//{{LESSON_JS}}") is never looked at again. Each marker must
// appear once; a missing one is a broken template.
std::string fill_template(const std::string& page, const std::vector<Fill>& fills) {
    std::string out;
    std::vector<bool> used(fills.size(), false);
    for (size_t from = 0;;) {
        size_t at = std::string::npos, which = 0;
        for (size_t i = 0; i < fills.size(); ++i)
            if (const size_t a = page.find(fills[i].marker, from); a < at) at = a, which = i;
        if (at == std::string::npos) {
            out.append(page, from);
            break;
        }
        out.append(page, from, at - from).append(fills[which].text);
        used[which] = true;
        from = at + fills[which].marker.size();
    }
    for (size_t i = 0; i < fills.size(); ++i)
        if (!used[i]) throw vit::Error("web/lesson/lesson.html lacks " + fills[i].marker);
    return out;
}

// "</" inside a <script> would end it early: the scripts escape it as "<\/".
std::string script_safe(std::string text) {
    for (size_t at = text.find("</"); at != std::string::npos; at = text.find("</", at + 3))
        text.replace(at, 2, "<\\/");
    return text;
}

// JSON inside a <script>: every '<' (only ever inside a string) as \u003c, so
// no "</script" or "<!--" can appear.
std::string json_in_script(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) out += c == '<' ? std::string("\\u003c") : std::string(1, c);
    return out;
}

}  // namespace

// The photo as the model sees it: the crop rectangle of the original pixels
// (rounded to whole pixels), resized with PIL's bicubic to at most 512 px.
vit::Image photo_crop_square(const vit::Image& image, const vit::CropRect& crop, int input_size) {
    const int x0 = std::clamp(static_cast<int>(std::lround(crop.x)), 0, image.width - 1);
    const int y0 = std::clamp(static_cast<int>(std::lround(crop.y)), 0, image.height - 1);
    const int x1 = std::clamp(static_cast<int>(std::lround(crop.x + crop.w)), x0 + 1, image.width);
    const int y1 = std::clamp(static_cast<int>(std::lround(crop.y + crop.h)), y0 + 1, image.height);
    vit::Image cropped;
    cropped.width = x1 - x0;
    cropped.height = y1 - y0;
    cropped.rgb.resize(static_cast<size_t>(cropped.width) * cropped.height * 3);
    for (int y = 0; y < cropped.height; ++y)
        std::copy_n(&image.rgb[(static_cast<size_t>(y0 + y) * image.width + x0) * 3], cropped.width * 3,
                    &cropped.rgb[static_cast<size_t>(y) * cropped.width * 3]);
    const int side =
        std::clamp(std::min(cropped.width, cropped.height), input_size, std::max(input_size, kMaxPhotoSide));
    return vit::resize_pil(cropped, side, side, "bicubic");
}

std::string photo_jpeg_data_uri(const vit::Image& image, const vit::CropRect& crop, int input_size) {
    const vit::Image square = photo_crop_square(image, crop, input_size);
    const int side = square.width;
    std::string jpeg;
    auto append = [](void* context, void* bytes, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(bytes), static_cast<size_t>(size));
    };
    if (!stbi_write_jpg_to_func(append, &jpeg, side, side, 3, square.rgb.data(), kJpegQuality))
        throw vit::Error("could not encode the photo as JPEG");
    return "data:image/jpeg;base64," + vit::base64_encode(jpeg);
}

namespace {

json tour_json(const session::AppState& start, const session::Tour& tour) {
    session::AppState s = start;
    session::make_relevant_choice_now(s, tour);
    session::apply(s, session::act::StartTour{std::make_shared<const session::Tour>(tour)});
    json steps = json::array();
    for (int i = 0; i < static_cast<int>(tour.steps.size()); ++i) {
        session::apply(s, session::act::TourGo{i});
        // The state the window is in at this step (what the step sets, and what it keeps), its
        // selection in the fields the state file and lessons write.
        json step = session::selection_json(session::saved_selection(s.sel));
        step["title"] = tour.steps[i].title;
        step["text"] = session::shown_tour_text(s);
        steps.push_back(std::move(step));
    }
    return {{"title", tour.title}, {"steps", steps}};
}

// The homework as the page needs it: what each exercise asks and on which
// layer, head, query and key, never a computed kind's answer (the page
// computes top_key, weight, scaled_score and the region's weight itself, so
// the check is the model's numbers, not a number stored in the page). A
// choice's answer is the teacher's and has to be in the page.
json exercises_json(session::AppState s, const session::ExerciseSet& set) {
    if (s.photos_dir.empty())
        s.photos_dir = sample_photos_dir();  // as `vitscope exercises`: the other-photo rules need it
    const std::vector<session::ExerciseAnswer> answers = session::answer_exercises(s, set);
    json out = json::array();
    for (const session::ExerciseAnswer& a : answers) {
        const session::Exercise& e = set.exercises[static_cast<size_t>(a.exercise - 1)];
        json x = {{"n", a.exercise},
                  {"kind", session::exercise_kind_name(a.kind)},
                  {"title", set.tour->steps[static_cast<size_t>(a.exercise - 1)].title},
                  {"text", a.text}};
        if (a.layer >= 0) x["layer"] = a.layer;  // a choice has none
        if (a.head >= 0) x["head"] = a.head;
        if (a.mean) x["mean"] = true;  // map=mean: the mean of the layer's heads
        if (a.query >= 0) x["query"] = a.query;
        // top_key's `key` is its answer; the others' is the pinned key the question names.
        if (session::pinned_key_kind(a.kind)) x["key"] = a.key;
        if (session::numeric_kind(a.kind)) {
            const session::Precision p = session::precision_of(e);
            x["tolerance"] = e.tolerance;
            x["relative"] = e.relative;
            x["precision"] = {{"significant", p.significant}, {"digits", p.digits}};
        }
        if (a.kind == session::ExerciseKind::PredictRegion) x["ratio"] = e.ratio;
        if (a.kind == session::ExerciseKind::Choice) {
            // The teacher's options, not in the clear: a code the page matches the student's choice
            // against (and after Check, every choice of that many options, to show the right one).
            x["options"] = e.options;
            x["answer_count"] = a.options.size();
            x["answer_code"] = session::choice_code(a.exercise, x["title"].get<std::string>(), a.options);
        }
        out.push_back(x);
    }
    return out;
}

}  // namespace

std::string lesson_web_dir() {
    if (const char* env = std::getenv("VITSCOPE_WEB_DIR"); env && *env) return env;
        // share/vitscope/web once installed (never the source tree), else the build's source tree.
#ifdef VITSCOPE_WEB_DIR
    return vit::resource_dir("web", VITSCOPE_WEB_DIR);
#else
    return vit::resource_dir("web", "web");
#endif
}

void check_lesson_files() {
    for (const char* name : {"lesson.html", "lesson.css", "lesson_math.js", "lesson_homework.js", "lesson.js"})
        read_part(name);
}

std::string lesson_page_html(const session::AppState& s, const session::Tour* tour,
                             const session::ExerciseSet* exercises, const Handout& handout) {
    if (!s.loaded.ready()) throw vit::Error("no photo and model to make a lesson page of");
    const vit::Trace& t = *s.loaded.trace;
    const vit::Model& model = *s.loaded.model;
    const size_t half_bytes = static_cast<size_t>(t.layers.size()) * model.heads * 3 * t.tokens * t.head_dim * 2;
    if (half_bytes / 3 * 4 > kMaxLessonBytes)
        throw vit::Error("the lesson page would hold " + std::to_string(half_bytes / 3 * 4 >> 20) +
                         " MB of q, k and v, over the " + std::to_string(kMaxLessonBytes >> 20) +
                         " MB a browser page can be trusted with; use a smaller --size or model");

    json meta = {{"layers", t.layers.size()},
                 {"heads", model.heads},
                 {"head_dim", t.head_dim},
                 {"tokens", t.tokens},
                 {"prefix", t.prefix},
                 {"grid", t.grid},
                 {"patch", model.config.patch_size},
                 {"input_size", s.loaded.input ? s.loaded.input->size : model.config.pre.input_size}};
    json prefix_names = json::array();
    for (int j = 0; j < t.prefix; ++j) prefix_names.push_back(vit::token_name(t, j));
    meta["prefix_names"] = prefix_names;
    json top5 = json::array();
    for (const vit::ClassScore& c : s.loaded.top5) top5.push_back({{"label", c.label}, {"probability", c.probability}});

    json data;
    data["format"] = 1;
    data["generator_version"] = "0.1";
    data["photo"] = fs::path(s.loaded.image_path).filename().string();
    data["model"] = fs::path(s.loaded.model_dir).lexically_normal().filename().string();
    if (data["model"].get<std::string>().empty())
        data["model"] = fs::path(s.loaded.model_dir).parent_path().filename().string();
    data["meta"] = meta;
    data["top5"] = top5;
    data["image"] = photo_jpeg_data_uri(*s.loaded.image, s.loaded.crop, meta["input_size"].get<int>());
    data["qkv"] = vit::base64_encode(vit::half_qkv_bytes(t));
    data["start"] = {{"layer", s.sel.layer},
                     {"head", s.sel.head},
                     {"query", s.sel.query},
                     {"mean", s.sel.source == session::MapSource::MeanOfVisible}};
    data["tour"] = tour ? tour_json(s, *tour) : json(nullptr);
    if (exercises) {
        data["exercises"] = exercises_json(s, *exercises);
        data["variant"] = std::to_string(handout.variant);
        if (!handout.student.empty()) data["student"] = handout.student;
    }

    return fill_template(read_part("lesson.html"),
                         {{"{{TITLE}}", html_escaped("vitscope lesson: " + data["photo"].get<std::string>())},
                          {"/*{{LESSON_CSS}}*/", read_part("lesson.css")},
                          {"{{LESSON_DATA}}",
                           json_in_script(data.dump(-1, ' ', false, json::error_handler_t::replace))},
                          {"//{{LESSON_MATH_JS}}", script_safe(read_part("lesson_math.js"))},
                          {"//{{LESSON_HOMEWORK_JS}}", script_safe(read_part("lesson_homework.js"))},
                          {"//{{LESSON_JS}}", script_safe(read_part("lesson.js"))}});
}

}  // namespace app
