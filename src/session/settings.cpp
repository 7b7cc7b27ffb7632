#include "settings.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "gfx/style_names.h"
#include "vit/atomic_file.h"
#include "vit/error.h"

namespace session {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// An enum stored by its name (gfx/style_names.h); unknown names keep the fallback.
template <class E, class Parse>
E enum_from(const json& j, const char* key, Parse parse, E fallback) {
    if (!j.contains(key) || !j[key].is_string()) return fallback;
    return parse(j[key].get<std::string>()).value_or(fallback);
}

template <class T>
T value_or(const json& j, const char* key, T fallback) {
    try {
        return j.contains(key) ? j[key].get<T>() : fallback;
    } catch (const json::exception&) {
        return fallback;  // a wrong type in one field keeps the others
    }
}

}  // namespace

std::string settings_path() {
    if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x) return (fs::path(x) / "vitscope" / "settings.json").string();
    if (const char* h = std::getenv("HOME"); h && *h) return (fs::path(h) / ".config" / "vitscope" / "settings.json").string();
    return "";
}

Settings load_settings(const std::string& path, std::string& warning) {
    Settings s;
    warning.clear();
    std::ifstream in(path);
    if (!in) return s;
    std::stringstream text;
    text << in.rdbuf();
    json j = json::parse(text.str(), nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        warning = path + " is not valid JSON; using default settings";
        return s;
    }
    s.model_dir = value_or<std::string>(j, "model", "");
    s.image_path = value_or<std::string>(j, "image", "");
    s.browse_dir = value_or<std::string>(j, "browse_dir", "");
    s.export_dir = value_or<std::string>(j, "export_dir", "");
    s.temperature = value_or(j, "temperature", 1.f);
    s.window_width = value_or(j, "window_width", 0);
    s.window_height = value_or(j, "window_height", 0);
    if (j.contains("overlay") && j["overlay"].is_object()) {
        const json& o = j["overlay"];
        gfx::OverlayStyle& st = s.style;
        st.colormap = enum_from(o, "colormap", gfx::colormap_from_name, st.colormap);
        st.normalization = enum_from(o, "normalization", gfx::normalization_from_name, st.normalization);
        st.opacity = std::clamp(value_or(o, "opacity", st.opacity), 0.f, 1.f);
        st.fade = value_or(o, "fade", st.fade);
        st.bilinear = value_or(o, "bilinear", st.bilinear);
        st.show_grid = value_or(o, "grid", st.show_grid);
    }
    return s;
}

void save_settings(const std::string& path, const Settings& s) {
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    if (ec) throw vit::Error(fs::path(path).parent_path().string() + ": cannot create (" + ec.message() + ")");
    json j;
    j["model"] = s.model_dir;
    j["image"] = s.image_path;
    j["browse_dir"] = s.browse_dir;
    j["export_dir"] = s.export_dir;
    j["temperature"] = s.temperature;
    j["window_width"] = s.window_width;
    j["window_height"] = s.window_height;
    j["overlay"] = {{"colormap", gfx::name_of(s.style.colormap)},
                    {"normalization", gfx::name_of(s.style.normalization)},
                    {"opacity", s.style.opacity},
                    {"fade", s.style.fade},
                    {"bilinear", s.style.bilinear},
                    {"grid", s.style.show_grid}};
    vit::write_file_atomic(path, j.dump(2) + "\n");
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
    return s;
}

}  // namespace session
