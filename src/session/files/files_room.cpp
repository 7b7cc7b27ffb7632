#include "session/files/files_room.h"

#include <nlohmann/json.hpp>

namespace session {

void apply_files(AppState& s, const FilesActions& a) {
    const auto& x = std::get<act::OpenBrowser>(a);
    s.browser.mode = x.mode;
    if (!x.dir.empty()) s.browser.dir = x.dir;
    if (x.mode != BrowserState::Mode::Closed) {  // one dialog at a time
        s.show_help = false;
        s.get_model.open = false;
    }
}

const char* browser_mode_name(BrowserState::Mode mode) {
    using Mode = BrowserState::Mode;
    switch (mode) {
        case Mode::Closed: return "closed";
        case Mode::OpenImage: return "image";
        case Mode::OpenCompare: return "compare";
        case Mode::OpenLesson: return "lesson";
        case Mode::OpenRun: return "run";  // the Learning lab's
        case Mode::OpenExercises: return "exercises";
        case Mode::OpenModel: return "model";
    }
    return "model";
}

void files_json(const AppState& s, const DrawnReport&, nlohmann::json& j) {
    j["browser"] = browser_mode_name(s.browser.mode);
    j["browser_dir"] = s.browser.dir;
}

namespace {

using FilesOut = std::vector<FilesRequest>;

VerbWait save(const ScriptCommand& c, FilesOut& out, bool embed) {
    out.push_back(cmd::SaveLesson{c.arg, embed});
    return VerbWait{1};
}

const Verb<FilesRequest> kFilesVerbs[] = {
    {"save-lesson", VerbArg::File,
     [](const ScriptCommand& c, const AppState&, FilesOut& out) { return save(c, out, false); }},
    {"save-lesson-with-photo", VerbArg::File,
     [](const ScriptCommand& c, const AppState&, FilesOut& out) { return save(c, out, true); }},
    {"open-lesson", VerbArg::Required,
     [](const ScriptCommand& c, const AppState&, FilesOut& out) {
         out.push_back(cmd::OpenLesson{c.arg});
         return VerbWait{0, true};
     }},
};

}  // namespace

std::span<const Verb<FilesRequest>> files_verbs() { return kFilesVerbs; }

}  // namespace session
