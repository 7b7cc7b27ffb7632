#include "session/files/lesson.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <optional>

#include <nlohmann/json.hpp>

#include "session/core/core_names.h"
#include "session/base/json_fields.h"
#include "session/base/json_path.h"
#include "session/base/selection_json.h"
#include "session/base/style_json.h"
#include "vit/base/atomic_file.h"
#include "vit/base/base64.h"
#include "vit/base/error.h"
#include "vit/base/read_file.h"
#include "vit/base/untrusted_json.h"
#include "vit/formats/checkpoint.h"
#include "vit/image/image.h"

namespace session {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// Sizes refused before they are read: a photo embedded in base64 grows by a third.
constexpr uint64_t kMaxEmbeddedPhoto = 32u << 20;
constexpr uint64_t kMaxLessonBytes = 48u << 20;

std::string absolute(const std::string& p) {
    std::error_code ec;
    return p.empty() ? p : fs::absolute(p, ec).lexically_normal().string();
}

// Why PATH is not a file a lesson can open, in words ("is a folder"); empty
// when it is a regular file. A FIFO or /dev/zero would block or never end.
std::string not_a_regular_file(const std::string& path) {
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec == std::errc::too_many_symbolic_link_levels) return "is a symlink loop";
    if (st.type() == fs::file_type::not_found) {
        return fs::is_symlink(fs::symlink_status(path, ec)) ? "is a link to nothing (its target is missing)"
                                                            : "is missing";
    }
    if (ec) return "cannot be read: " + ec.message();
    switch (st.type()) {
        case fs::file_type::regular: return "";
        case fs::file_type::directory: return "is a folder, not a file";
        case fs::file_type::fifo: return "is a FIFO (a named pipe), not a file";
        case fs::file_type::character:
        case fs::file_type::block: return "is a device, not a file";
        case fs::file_type::socket: return "is a socket, not a file";
        default: return "is not a regular file";
    }
}

}  // namespace

bool is_lesson_path(const std::string& path) {
    std::string ext = fs::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext == ".vitscope";
}

Lesson lesson_from_state(const AppState& s) {
    const vit::Trace* t = s.trace();
    if (!t || !s.loaded.input) throw vit::Error("nothing to save yet: no model has run on a photo");
    Lesson l;
    l.photo = absolute(s.loaded.image_path);
    l.model = absolute(s.loaded.model_dir);
    l.input_size = s.loaded.input->size;
    l.selection = saved_selection(s.sel);
    l.tab = s.tab;
    l.question = s.question;
    l.classroom = s.classroom;
    l.math_step = s.math_step;
    l.compare_photo = absolute(s.compared.image_path);
    l.style = s.style;
    l.temperature = s.temperature;
    return l;
}

std::string lesson_json(const Lesson& l, bool embed) {
    json j;
    j["vitscope_lesson"] = kLessonVersion;
    j["photo"] = path_to_json(l.photo);
    if (embed)
        j["photo_embedded"] =
            vit::base64_encode(vit::read_whole_file(l.photo, kMaxEmbeddedPhoto, "a photo embedded in a lesson"));
    j["model"] = path_to_json(l.model);
    j["input_size"] = l.input_size;
    j.update(selection_json(l.selection));
    j["tab"] = tab_name(l.tab);
    j["question"] = l.question;
    j["classroom"] = l.classroom;
    j["math_step"] = l.math_step;
    j["compare_photo"] = path_to_json(l.compare_photo);
    j["style"] = style_json(l.style);
    j["temperature"] = l.temperature;
    return j.dump(2) + "\n";
}

Lesson read_lesson(const std::string& path) {
    std::error_code ec;
    const json j = vit::parse_untrusted_json(vit::read_whole_file(path, kMaxLessonBytes, "a lesson"), path);
    if (!j.is_object() || !j.contains("vitscope_lesson")) throw vit::Error(path + ": not a vitscope lesson");
    const FieldReader r(j, path);
    const json& version = j["vitscope_lesson"];
    if (!version.is_number_integer()) r.fail("\"vitscope_lesson\" is not a version number");
    if (!whole_number_within(version, LLONG_MIN, kLessonVersion))
        r.fail("lesson version " + whole_number_text(version) + " is newer than this vitscope reads (" +
               std::to_string(kLessonVersion) + "); update vitscope");
    if (!whole_number_within(version, 1, kLessonVersion))
        r.fail("lesson version " + whole_number_text(version) + " does not exist");

    const fs::path base = fs::absolute(path, ec).parent_path();
    auto resolve = [&](const std::string& p) { return p.empty() ? p : (base / p).lexically_normal().string(); };
    Lesson l;
    l.photo = resolve(r.path("photo"));
    if (j.contains("photo_embedded")) {
        const auto bytes = vit::base64_decode(r.text("photo_embedded"));
        if (!bytes || bytes->empty()) r.fail("\"photo_embedded\" is not base64");
        l.photo_embedded = *bytes;
    }
    l.model = resolve(r.path("model"));
    l.input_size = r.integer("input_size", 16, 4096);
    l.selection = read_selection(r);
    const std::string tab = r.one_of("tab", {"math", "whatifs", "questions"});
    for (AppState::Tab t : {AppState::Tab::Math, AppState::Tab::WhatIfs, AppState::Tab::Questions})
        if (tab == tab_name(t)) l.tab = t;
    l.question = r.text("question");
    l.classroom = r.boolean("classroom");
    l.math_step = r.integer("math_step", 1, kMathSteps);
    l.compare_photo = resolve(r.path("compare_photo"));
    const FieldReader st = r.object("style");
    read_style(r.field("style"), l.style, StyleReading::Strict,
               [&](const std::string&, const std::string& why) { st.fail(why); });
    l.temperature = r.number("temperature", kMinTemperature, kMaxTemperature);

    // What must be on this machine: named here, before anything changes.
    if (const std::string why = not_a_regular_file(l.photo); l.photo_embedded.empty() && !why.empty())
        r.fail("the photo " + l.photo + " " + why);
    try {
        vit::check_model_folder(l.model);  // what --model accepts
    } catch (const vit::Error& e) {
        r.fail(std::string("the model: ") + e.what());
    }
    if (const std::string why = l.compare_photo.empty() ? "" : not_a_regular_file(l.compare_photo); !why.empty())
        r.fail("the comparison photo " + l.compare_photo + " " + why);
    return l;
}

void save_lesson(const std::string& path, const AppState& s, bool embed, const vit::OutputRules& rules) {
    vit::write_output(path, lesson_json(lesson_from_state(s), embed), rules);
}

std::string unpack_embedded_photo(const Lesson& l) {
    std::error_code ec;
    if (l.photo_embedded.empty() || fs::is_regular_file(l.photo, ec)) return l.photo;
    const std::string name = fs::path(l.photo).filename().string();
    // Decoded first: bytes that are not a photo vitscope reads never reach the cache folder.
    vit::decode_image(reinterpret_cast<const uint8_t*>(l.photo_embedded.data()), l.photo_embedded.size(),
                      "the photo embedded in the lesson (" + name + ")");
    fs::path dir;
    // A relative XDG_CACHE_HOME is ignored, as the XDG spec says.
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x == '/') dir = fs::path(x) / "vitscope" / "lesson-photos";
    else if (const char* h = std::getenv("HOME"); h && *h) dir = fs::path(h) / ".cache" / "vitscope" / "lesson-photos";
    else dir = fs::temp_directory_path() / "vitscope-lesson-photos";
    fs::create_directories(dir, ec);
    if (ec) throw vit::Error("cannot unpack the lesson's photo into " + dir.string() + ": " + ec.message());
    // Named after its bytes, so two lessons with photos of one name never collide.
    const size_t hash = std::hash<std::string>{}(l.photo_embedded);
    char tag[24];
    std::snprintf(tag, sizeof tag, "%016zx", hash);
    const fs::path out = dir / (std::string(tag) + "-" + name);
    if (!fs::is_regular_file(out, ec)) vit::write_file_atomic(out.string(), l.photo_embedded);
    return out.string();
}

}  // namespace session
