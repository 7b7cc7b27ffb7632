// The tour room's commands in the window: opening a tour file (and the
// lesson a step starts from), exporting the tour as slides.
#include <filesystem>
#include <memory>
#include <string>
#include <utility>

#include "app/gui/tour_slides.h"
#include "app/gui/window.h"
#include "app/gui/window_export.h"
#include "app/resource_paths.h"
#include "session/base/overloaded.h"
#include "session/core/output_rules.h"
#include "session/dispatch/actions.h"
#include "session/homework/live_exercise.h"
#include "session/tour/tour.h"
#include "vit/base/error.h"

namespace app {

namespace fs = std::filesystem;

// A tour step shown just now that starts from a lesson: open it (a bad one is
// the error line; the step stays).
void Window::open_tour_lesson() {
    if (s_.tour.lesson_to_open.empty()) return;
    const std::string path = std::exchange(s_.tour.lesson_to_open, {});
    try {
        open_lesson(session::read_lesson(path), path);
        lesson_tour_step_ = s_.tour.step;
    } catch (const std::exception& e) {
        s_.last_error = e.what();
    }
}

void Window::carry_tour(const session::TourCommands& c) {
    using namespace session::cmd;
    std::visit(session::Overloaded{
                   [&](const OpenTour& x) {
                       const std::string path = x.path.empty() ? default_tour_file() : x.path;
                       session::apply(s_, session::act::StartTour{
                                              std::make_shared<const session::Tour>(session::read_tour(path))});
                       open_tour_lesson();
                   },
                   [&](const ExportTourSlides& x) {
                       // Drawn here, on the window's thread, in a few seconds: each step is one offscreen frame.
                       session::AppState at = s_;
                       // The exercises' tour is no lecture: the one that ships instead.
                       if (!at.tour.tour || session::live_exercise_on(s_))
                           at.tour.tour =
                               std::make_shared<const session::Tour>(session::read_tour(default_tour_file()));
                       const std::string dir = x.dir.empty() ? unique_path(s_.export_dir, "tour_slides", "") : x.dir;
                       // In classroom mode, lecture-size slides as `vitscope tour --classroom` draws them.
                       write_tour_slides(at, dir, session::output_rules(s_, false), slide_size(s_.classroom));
                       s_.status = "Saved the tour's slides in " + deliver_saved(dir);
                   },
               },
               c);
}

}  // namespace app
