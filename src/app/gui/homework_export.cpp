#include "app/gui/homework_export.h"

#include <memory>
#include <vector>

#include "app/gui/lesson_page.h"
#include "app/gui/worksheet.h"
#include "app/resource_paths.h"
#include "session/homework/answer_key.h"
#include "session/homework/exercises.h"
#include "session/homework/live_exercise.h"
#include "session/tour/tour.h"

namespace app {

void write_homework(const session::AppState& s, const std::string& dir, const vit::OutputRules& rules) {
    const session::ExerciseSet set = session::read_exercises(default_exercises_file());
    const std::vector<session::ExerciseAnswer> answers = session::answer_exercises(s, set);
    // The page's tour as File > Export lesson page gives it: the one on show, or the one that ships.
    const auto tour = s.tour.tour && !session::live_exercise_on(s)
                          ? s.tour.tour
                          : std::make_shared<const session::Tour>(session::read_tour(default_tour_file()));
    // Everything made before the folder is: a failure writes nothing.
    const std::string page = lesson_page_html(s, tour.get(), &set);
    const std::string sheet = worksheet_html(s, set, answers);
    vit::OutputFolder folder(dir, rules);
    folder.write("homework.html", page);
    folder.write("worksheet.html", sheet);
    folder.write("answer_key.csv", session::answer_key_csv(*s.loaded.trace, set, answers));
    folder.commit();
}

}  // namespace app
