#include "session/homework/homework_room.h"

#include <nlohmann/json.hpp>
#include <sstream>

#include "session/base/script_args.h"
#include "session/homework/live_exercise.h"
#include "session/homework/live_exercise_report.h"
#include "vit/base/error.h"

namespace session {

void apply_homework(AppState& s, const HomeworkActions& a) { apply_live(s, std::get<act::Live>(a).op); }

void homework_json(const AppState& s, const DrawnReport& drawn, nlohmann::json& j) {
    j["live_exercise"] = live_exercise_json(s);
    j["live_exercise"]["targets"] = nlohmann::json::object();
    for (const auto& [name, rect] : drawn.exercise_targets) j["live_exercise"]["targets"][name] = rect;
}

namespace {

using HomeworkOut = std::vector<HomeworkRequest>;

const Exercise& shown_exercise(const ScriptCommand& c, const AppState& s) {
    const Exercise* e = live_exercise_shown(s);
    if (!e) throw vit::Error(c.where + ": " + c.verb + " with no live exercise on (exercises FILE first)");
    return *e;
}

// The answer as the class gives it, in the form the exercise's kind takes.
void answer(const ScriptCommand& c, const AppState& s, HomeworkOut& out) {
    using Kind = ExerciseKind;
    const Exercise& e = shown_exercise(c, s);
    if (numeric_kind(e.kind)) {
        out.push_back(act::Live{live::Type{c.arg}});  // checked on Reveal, as typed in the field
    } else if (e.kind == Kind::Choice) {
        out.push_back(act::Live{live::Choose{whole_number(c)}});
    } else {
        std::istringstream words(c.arg);
        for (std::string word; words >> word;) {
            const int token = script_token({c.verb, word, c.where}, *s.trace());
            if (e.kind == Kind::TopKey) out.push_back(act::Live{live::Pick{token}});
            else out.push_back(act::Live{live::Mark{token}});
        }
    }
}

// The exercise's state and the panel's places show a frame later.
constexpr VerbWait kShownInHomework{2};

const Verb<HomeworkRequest> kHomeworkVerbs[] = {
    {"exercises", VerbArg::Required,
     [](const ScriptCommand& c, const AppState&, HomeworkOut& out) {
         out.push_back(cmd::OpenExercises{c.arg == "default" ? "" : c.arg});
         return kShownInHomework;
     }},
    {"exercise", VerbArg::Required,
     [](const ScriptCommand& c, const AppState& s, HomeworkOut& out) {
         shown_exercise(c, s);
         const int i = s.live_exercise.index;
         if (c.arg == "next" || c.arg == "back") out.push_back(act::Live{live::Go{i + (c.arg == "next" ? 1 : -1)}});
         else if (c.arg == "reveal") out.push_back(act::Live{live::Reveal{}});
         else if (c.arg == "end") out.push_back(act::Live{live::End{}});
         else throw vit::Error(c.where + ": exercise is next, back, reveal or end");
         return kShownInHomework;
     }},
    {"answer", VerbArg::Required,
     [](const ScriptCommand& c, const AppState& s, HomeworkOut& out) {
         answer(c, s, out);
         return kShownInHomework;
     }},
    {"export-lesson", VerbArg::File,
     [](const ScriptCommand& c, const AppState&, HomeworkOut& out) {
         out.push_back(cmd::ExportLesson{c.arg});
         return VerbWait{1};
     }},
    {"export-homework", VerbArg::Folder,
     [](const ScriptCommand& c, const AppState&, HomeworkOut& out) {
         out.push_back(cmd::ExportHomework{c.arg});
         return VerbWait{1};
     }},
};

}  // namespace

std::span<const Verb<HomeworkRequest>> homework_verbs() { return kHomeworkVerbs; }

}  // namespace session
