// The files room's action (the file browser), commands (saving and opening
// lessons, carried out by the window), state-file part and script verbs:
//   save-lesson [PATH]              as File > Save lesson… (default: a descriptive name in the export folder)
//   save-lesson-with-photo [PATH]   the same with the photo's bytes embedded
//   open-lesson PATH                as File > Open lesson… (then waits); a bad file leaves the state as it was
#pragma once
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>
#include <variant>

#include "session/base/drawn_report.h"
#include "session/base/script_verb.h"
#include "session/base/variant_tools.h"
#include "session/state/app_state.h"

namespace session {

namespace act {
struct OpenBrowser {
    BrowserState::Mode mode;
    std::string dir;
};  // one dialog at a time
}  // namespace act

namespace cmd {
struct SaveLesson {
    std::string path;
    bool embed_photo = false;
    bool replace = false;
};  // empty path: a descriptive name in export_dir
struct OpenLesson {
    std::string path;
};  // the window reads it, then opens its model and photos and applies it
}  // namespace cmd

using FilesActions = std::variant<act::OpenBrowser>;
using FilesCommands = std::variant<cmd::SaveLesson, cmd::OpenLesson>;
using FilesRequest = joined_variant_t<FilesActions, FilesCommands>;

void apply_files(AppState& s, const FilesActions& a);
void files_json(const AppState& s, const DrawnReport& drawn, nlohmann::json& j);
std::span<const Verb<FilesRequest>> files_verbs();

// "closed", "image", "compare", "lesson", "run", "exercises", "model": the browser's mode as the state file names it.
const char* browser_mode_name(BrowserState::Mode mode);

}  // namespace session
