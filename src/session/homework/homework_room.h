// The homework room's actions (the live exercise's, through act::Live),
// commands (reading an exercises file, the lesson page and the homework
// folder, carried out by the window), state-file part and script verbs:
//   exercises FILE | default  classroom mode's live exercise, as File > Exercises in class
//                             (default: the sample), then 2 frames
//   exercise next | back | reveal | end   as the exercise panel's buttons
//   answer ARG                the class's answer to the exercise on show: ROW,COL or cls (top_key),
//                             ROW,COL ... (predict_region: each patch marked or unmarked), the text
//                             typed (weight, scaled_score), an option's number (choice)
//   export-lesson [PATH]      the lesson page (HTML), as File > Export lesson page
//   export-homework [DIR]     the homework folder, as File > Export homework
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
struct Live {
    LiveAction op;
};  // the live exercise (live_exercise.h)
}  // namespace act

namespace cmd {
// The live exercise: the window reads the file (empty: the sample), sets it on
// the photo, then act::Live{Start}; a bad file is one line and nothing changes.
struct OpenExercises {
    std::string path;
};
struct ExportLesson {
    std::string path;
    bool replace = false;
};  // the lesson page (HTML) for the open photo; empty: a name in export_dir
struct ExportHomework {
    std::string dir;
};  // the homework that ships for the open photo: a new folder (empty: one in export_dir)
}  // namespace cmd

using HomeworkActions = std::variant<act::Live>;
using HomeworkCommands = std::variant<cmd::OpenExercises, cmd::ExportLesson, cmd::ExportHomework>;
using HomeworkRequest = joined_variant_t<HomeworkActions, HomeworkCommands>;

void apply_homework(AppState& s, const HomeworkActions& a);
void homework_json(const AppState& s, const DrawnReport& drawn, nlohmann::json& j);
std::span<const Verb<HomeworkRequest>> homework_verbs();

}  // namespace session
