#include "session/lesson.h"

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

#include "session/actions.h"
#include "session/json_path.h"
#include "session/style_json.h"
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

// A whole number as written: one above 2^63 is unsigned in the JSON
// library, and read as a signed one it would wrap (18446744073709551615 to -1).
std::string whole_number_text(const json& v) {
    return v.is_number_unsigned() ? std::to_string(v.get<uint64_t>()) : std::to_string(v.get<int64_t>());
}
bool whole_number_within(const json& v, long long lo, long long hi) {
    if (v.is_number_unsigned()) {
        const uint64_t u = v.get<uint64_t>();
        return hi >= 0 && u <= static_cast<uint64_t>(hi) && static_cast<long long>(u) >= lo;
    }
    const long long x = v.get<long long>();
    return x >= lo && x <= hi;
}

// Why PATH is not a file a lesson can open, in words ("is a folder"); empty
// when it is a regular file. A FIFO or /dev/zero would block or never end.
std::string not_a_regular_file(const std::string& path) {
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec == std::errc::too_many_symbolic_link_levels) return "is a symlink loop";
    if (st.type() == fs::file_type::not_found) {
        return fs::is_symlink(fs::symlink_status(path, ec)) ? "is a link to nothing (its target is missing)" : "is missing";
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

// Reads and checks the fields of one lesson; every error names the file.
class Reader {
public:
    Reader(const json& j, std::string name) : j_(j), name_(std::move(name)) {}

    [[noreturn]] void fail(const std::string& what) const { throw vit::Error(name_ + ": " + what); }

    const json& field(const char* key) const {
        if (!j_.contains(key)) fail(std::string("no \"") + key + "\"");
        return j_[key];
    }
    int integer(const char* key, int lo, int hi) const {
        const json& v = field(key);
        if (!v.is_number_integer()) fail(std::string("\"") + key + "\" is not a whole number");
        if (!whole_number_within(v, lo, hi))
            fail(std::string("\"") + key + "\" is " + whole_number_text(v) + ", outside " + std::to_string(lo) + ".." +
                 std::to_string(hi));
        return static_cast<int>(v.get<long long>());
    }
    float number(const char* key, float lo, float hi) const {
        const json& v = field(key);
        if (!v.is_number()) fail(std::string("\"") + key + "\" is not a number");
        const double x = v.get<double>();
        if (!(x >= lo && x <= hi)) fail(std::string("\"") + key + "\" is outside " + json(lo).dump() + ".." + json(hi).dump());
        return static_cast<float>(x);
    }
    bool boolean(const char* key) const {
        const json& v = field(key);
        if (!v.is_boolean()) fail(std::string("\"") + key + "\" is not true or false");
        return v.get<bool>();
    }
    std::string text(const char* key) const {
        const json& v = field(key);
        if (!v.is_string()) fail(std::string("\"") + key + "\" is not a string");
        return v.get<std::string>();
    }
    std::string path(const char* key) const {
        const auto p = path_from_json(field(key));
        if (!p) fail(std::string("\"") + key + "\" is not a path (a string, or {\"path_bytes\": base64})");
        return *p;
    }
    std::string one_of(const char* key, std::initializer_list<const char*> names) const {
        const std::string v = text(key);
        for (const char* n : names)
            if (v == n) return v;
        fail(std::string("\"") + key + "\" is \"" + vit::quote_for_error(v) + "\", not one vitscope knows");
    }
    Reader object(const char* key) const {
        const json& v = field(key);
        if (!v.is_object()) fail(std::string("\"") + key + "\" is not an object");
        return Reader(v, name_ + " (" + key + ")");
    }
    const json& raw() const { return j_; }

private:
    const json& j_;
    std::string name_;
};

const char* map_name(MapSource m) { return m == MapSource::MeanOfVisible ? "mean" : "head"; }

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
    l.layer = s.sel.layer;
    l.head = s.sel.head;
    l.visible_heads = s.sel.visible_heads();
    l.map = s.sel.source;
    l.query = s.sel.query;
    l.pinned_key = s.sel.pinned_key;
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
        j["photo_embedded"] = vit::base64_encode(vit::read_whole_file(l.photo, kMaxEmbeddedPhoto, "a photo embedded in a lesson"));
    j["model"] = path_to_json(l.model);
    j["input_size"] = l.input_size;
    j["layer"] = l.layer;
    j["head"] = l.head;
    j["visible_heads"] = l.visible_heads;
    j["map"] = map_name(l.map);
    j["query"] = l.query;
    j["pinned_key"] = l.pinned_key;
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
    const Reader r(j, path);
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
    l.layer = r.integer("layer", 0, 1023);
    l.head = r.integer("head", 0, 1023);
    const json& visible = r.field("visible_heads");
    if (!visible.is_array()) r.fail("\"visible_heads\" is not a list");
    for (const json& h : visible) {
        if (!h.is_number_integer() || h.get<long long>() < 0 || h.get<long long>() > 1023)
            r.fail("\"visible_heads\" holds " + vit::quote_for_error(h) + ", not a head");
        l.visible_heads.push_back(h.get<int>());
    }
    l.map = r.one_of("map", {"head", "mean"}) == "mean" ? MapSource::MeanOfVisible : MapSource::Head;
    l.query = r.integer("query", 0, 1 << 24);
    l.pinned_key = r.integer("pinned_key", -1, 1 << 24);
    const std::string tab = r.one_of("tab", {"math", "whatifs", "questions"});
    for (AppState::Tab t : {AppState::Tab::Math, AppState::Tab::WhatIfs, AppState::Tab::Questions})
        if (tab == tab_name(t)) l.tab = t;
    l.question = r.text("question");
    l.classroom = r.boolean("classroom");
    l.math_step = r.integer("math_step", 1, kMathSteps);
    l.compare_photo = resolve(r.path("compare_photo"));
    const Reader st = r.object("style");
    read_style(r.field("style"), l.style, StyleReading::Strict, [&](const std::string&, const std::string& why) { st.fail(why); });
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
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) dir = fs::path(x) / "vitscope" / "lesson-photos";
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

void apply_lesson(AppState& s, const Lesson& l) {
    apply(s, act::SetLayer{l.layer});
    apply(s, act::SetHead{l.head});
    for (size_t h = 0; h < s.sel.head_visible.size(); ++h)
        s.sel.head_visible[h] =
            std::find(l.visible_heads.begin(), l.visible_heads.end(), static_cast<int>(h)) != l.visible_heads.end();
    apply(s, act::SetMapSource{l.map});
    apply(s, act::SelectQuery{l.query});
    s.sel.pinned_key = -1;
    if (l.pinned_key >= 0) apply(s, act::PinKey{l.pinned_key});
    if (l.tab == AppState::Tab::Questions) apply(s, act::ShowQuestion{l.question});
    else {
        s.question = l.question;
        apply(s, act::ShowTab{l.tab});
    }
    apply(s, act::SetClassroom{l.classroom});
    apply(s, act::SetMathStep{l.math_step});
    apply(s, act::SetStyle{l.style});
    apply(s, act::SetTemperature{l.temperature});
}

}  // namespace session
