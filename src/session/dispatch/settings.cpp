#include "session/dispatch/settings.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "session/base/json_path.h"
#include "session/base/style_json.h"
#include "vit/base/atomic_file.h"
#include "vit/base/error.h"
#include "vit/base/read_file.h"
#include "vit/base/untrusted_json.h"
#include "session/core/core_names.h"

namespace session {
namespace {

constexpr uint64_t kMaxSettingsBytes = 64ULL << 20;  // as config.json's
constexpr size_t kMaxPathBytes = 4096;               // PATH_MAX: a longer "path" names no file
constexpr int kMaxLinkHops = 40;                     // Linux's own limit (ELOOP) on following links

using nlohmann::json;
namespace fs = std::filesystem;

// Reads the fields of one JSON object; a field of the wrong type, or a name
// that names nothing, keeps its default and is listed in `ignored`.
struct Fields {
    const json& j;
    std::string prefix;  // "overlay." for the nested object
    std::vector<std::string>& ignored;

    template <class T>
    T value_or(const char* key, T fallback) const {
        if (!j.contains(key)) return fallback;
        try {
            return j[key].get<T>();
        } catch (const json::exception&) {
            ignored.push_back(prefix + key);
            return fallback;
        }
    }

    // A path, as path_to_json wrote it (a string, or its bytes when not UTF-8).
    std::string path_or(const char* key, const std::string& fallback) const {
        if (!j.contains(key)) return fallback;
        const auto p = path_from_json(j[key]);
        if (p && p->size() <= kMaxPathBytes) return *p;
        ignored.push_back(prefix + key);
        return fallback;
    }

    // An enum stored by its name (gfx/style_names.h).
    template <class E, class Parse>
    E enum_or(const char* key, Parse parse, E fallback) const {
        if (!j.contains(key)) return fallback;
        const auto e = j[key].is_string() ? parse(j[key].get<std::string>()) : std::nullopt;
        if (!e) ignored.push_back(prefix + key);
        return e.value_or(fallback);
    }
};

// Where the settings' bytes go: through a symlink (settings.json kept in a
// dotfiles folder) to the file it names, so the link stays a link.
std::string link_target(const std::string& path) {
    fs::path p = path;
    std::error_code ec;
    for (int hops = 0; fs::is_symlink(fs::symlink_status(p, ec)); ++hops) {
        if (hops == kMaxLinkHops) throw vit::Error(path + ": is a symlink loop");
        const fs::path target = fs::read_symlink(p, ec);
        if (ec) throw vit::Error(path + ": cannot read the link (" + ec.message() + ")");
        p = target.is_absolute() ? target : p.parent_path() / target;
    }
    return p.string();
}

}  // namespace

std::string settings_path() {
    // A relative XDG_CONFIG_HOME is ignored, as the XDG spec says (it would write under the working folder).
    if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x == '/')
        return (fs::path(x) / "vitscope" / "settings.json").string();
    if (const char* h = std::getenv("HOME"); h && *h)
        return (fs::path(h) / ".config" / "vitscope" / "settings.json").string();
    return "";
}

Settings load_settings(const std::string& path, std::string& warning) {
    Settings s;
    warning.clear();
    std::error_code ec;
    const fs::file_status status = fs::symlink_status(path, ec);
    if (status.type() == fs::file_type::not_found) return s;  // a first run
    std::string text;
    try {
        // A regular file of at most config.json's limit: a FIFO would block, /dev/zero would never end.
        // An empty one is read as empty (then "not valid JSON" below).
        const bool empty = fs::is_regular_file(status) && fs::file_size(path, ec) == 0 && !ec;
        if (!empty) text = vit::read_whole_file(path, kMaxSettingsBytes, "settings");
    } catch (const vit::Error& e) {
        warning = std::string(e.what()) + "; using default settings";
        return s;
    }
    json j;
    try {
        j = vit::parse_untrusted_json(text, path);
    } catch (const vit::Error& e) {
        warning = std::string(e.what()) + "; using default settings";
        return s;
    }
    if (!j.is_object()) {
        warning = path + " is not a JSON object; using default settings";
        return s;
    }
    std::vector<std::string> ignored;
    const Fields top{j, "", ignored};
    s.model_dir = top.path_or("model", "");
    s.image_path = top.path_or("image", "");
    s.browse_dir = top.path_or("browse_dir", "");
    s.export_dir = top.path_or("export_dir", "");
    s.temperature = std::clamp(top.value_or("temperature", 1.f), kMinTemperature, kMaxTemperature);
    s.window_width = top.value_or("window_width", 0);
    s.window_height = top.value_or("window_height", 0);
    s.tour_offered = top.value_or("tour_offered", false);
    // Called here, not passed by name: clang (emscripten 3.1.6) declared it `void()` where its
    // optional return type was not yet instantiated, and wasm-ld turned the call into a trap.
    s.theme = top.enum_or("theme", [](const std::string& name) { return theme_from_name(name); }, s.theme);
    if (j.contains("overlay") && !j["overlay"].is_object()) {
        ignored.push_back("overlay");
    } else if (j.contains("overlay")) {
        read_style(j["overlay"], s.style, StyleReading::Lenient,
                   [&](const std::string& key, const std::string&) { ignored.push_back("overlay." + key); });
    }
    if (!ignored.empty()) {
        warning = path + ": ignored";
        for (size_t i = 0; i < ignored.size(); ++i) warning += (i ? ", " : " ") + ignored[i];
        warning += " (wrong type or unknown name); using their defaults";
    }
    return s;
}

void save_settings(const std::string& path, const Settings& s) {
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    if (ec) throw vit::Error(fs::path(path).parent_path().string() + ": cannot create (" + ec.message() + ")");
    json j;
    j["model"] = path_to_json(s.model_dir);
    j["image"] = path_to_json(s.image_path);
    j["browse_dir"] = path_to_json(s.browse_dir);
    j["export_dir"] = path_to_json(s.export_dir);
    j["temperature"] = s.temperature;
    j["window_width"] = s.window_width;
    j["window_height"] = s.window_height;
    j["tour_offered"] = s.tour_offered;
    j["theme"] = theme_name(s.theme);
    j["overlay"] = style_json(s.style);
    vit::write_file_atomic(link_target(path), j.dump(2) + "\n");
}

Settings settings_from_state(const AppState& st, int window_width, int window_height) {
    Settings s;
    // Absolute paths, so the next run finds them from any working directory.
    auto absolute = [](const std::string& p) {
        std::error_code ec;
        return p.empty() ? p : fs::absolute(p, ec).lexically_normal().string();
    };
    s.model_dir = absolute(st.loaded.model_dir);
    s.image_path = absolute(st.loaded.image_path);
    s.browse_dir = absolute(st.browser.dir);
    if (st.export_dir != ".") s.export_dir = absolute(st.export_dir);  // "." follows the working directory
    s.style = st.style;
    s.temperature = st.temperature;
    s.window_width = window_width;
    s.window_height = window_height;
    s.tour_offered = st.tour_offered;
    s.theme = st.theme;
    return s;
}

}  // namespace session
