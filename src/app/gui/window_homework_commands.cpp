// The homework room's commands in the window: a live exercise's file, the
// lesson page and the homework folder for the open photo.
#include <filesystem>
#include <memory>
#include <string>
#include <utility>

#include "app/gui/homework_export.h"
#include "app/gui/lesson_page.h"
#include "app/gui/window.h"
#include "app/gui/window_export.h"
#include "app/resource_paths.h"
#include "session/base/overloaded.h"
#include "session/core/core_names.h"
#include "session/core/output_rules.h"
#include "session/dispatch/actions.h"
#include "session/homework/exercises.h"
#include "session/homework/live_exercise.h"
#include "vit/base/error.h"
#include "vit/base/output_file.h"

namespace app {

namespace fs = std::filesystem;

void Window::carry_homework(const session::HomeworkCommands& c) {
    using namespace session::cmd;
    std::visit(session::Overloaded{
                   [&](const OpenExercises& x) {
                       // Read and set on this photo first, so a bad file is one line and nothing changes.
                       const std::string path = x.path.empty() ? default_exercises_file() : x.path;
                       auto set = std::make_shared<const session::ExerciseSet>(session::read_exercises(path));
                       session::prepare_live_exercises(s_, *set);
                       session::apply(s_, session::act::Live{session::live::Start{set, path}});
                   },
                   [&](const ExportLesson& x) {
                       // The page for what the window shows, starting at its selection; the tour on show or the one
                       // that ships.
                       const std::string path = export_name(x.path, "_lesson", ".html");
                       const auto tour =
                           s_.tour.tour && !session::live_exercise_on(s_)
                               ? s_.tour.tour
                               : std::make_shared<const session::Tour>(session::read_tour(default_tour_file()));
                       vit::write_output(path, lesson_page_html(s_, tour.get()), session::output_rules(s_, x.replace));
                       s_.status = "Saved the lesson page " + deliver_saved(path);
                   },
                   [&](const ExportHomework& x) {
                       const std::string dir =
                           x.dir.empty() ? unique_path(s_.export_dir, session::selection_slug(s_) + "_homework", "")
                                         : x.dir;
                       write_homework(s_, dir, session::output_rules(s_, false));
                       s_.status = "Saved the homework (page, worksheet, answer key) in " + deliver_saved(dir);
                   },
               },
               c);
}

}  // namespace app
