// What the window remembers between runs: the last model and photo, the
// overlay style, folders, the window size. A JSON file in
// $XDG_CONFIG_HOME/vitscope (default ~/.config/vitscope); --no-settings
// neither reads nor writes it.
#pragma once
#include <string>

#include "session/state/app_state.h"

namespace session {

struct Settings {
    std::string model_dir;
    std::string image_path;
    std::string browse_dir;
    std::string export_dir;
    gfx::OverlayStyle style;
    float temperature = 1.f;
    int window_width = 0, window_height = 0;        // 0: not remembered
    bool tour_offered = false;                      // the first run offered the guided tour
    AppState::Theme theme = AppState::Theme::Dark;  // View > Theme
    bool operator==(const Settings&) const = default;
};

// Empty when neither XDG_CONFIG_HOME nor HOME is set.
std::string settings_path();

// Missing file: defaults. A file that is not a regular file (a FIFO, a
// folder), is over 64 MiB, unreadable or not a JSON object gives defaults; a
// field of the wrong type or an unknown name keeps its default (the other
// fields are read). The reason is returned in `warning` and nothing throws, so
// a bad edit never stops the window opening.
Settings load_settings(const std::string& path, std::string& warning);
// Written whole or not at all; throws vit::Error when the folder cannot be made or written.
// A settings.json that is a symlink stays one: the file it names is replaced.
void save_settings(const std::string& path, const Settings& settings);

// The parts of the state that are remembered.
Settings settings_from_state(const AppState& s, int window_width, int window_height);

}  // namespace session
