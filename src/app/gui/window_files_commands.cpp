// The files room's commands in the window: saving a lesson, opening one
// (its model and photos through the worker, applied when they arrive).
#include <filesystem>
#include <memory>
#include <string>
#include <utility>

#include "app/gui/window.h"
#include "app/resource_paths.h"
#include "session/base/overloaded.h"
#include "session/core/output_rules.h"
#include "session/dispatch/apply_lesson.h"
#include "session/files/lesson.h"
#include "vit/base/error.h"

namespace app {

namespace fs = std::filesystem;

// A lesson read and checked: its model, photo (unpacked when embedded and
// missing here) and second photo go to the worker; the rest waits for them.
// The worker opens it whole or not at all: on any error the window stays as it was.
void Window::open_lesson(session::Lesson lesson, const std::string& path) {
    try {
        lesson.photo = session::unpack_embedded_photo(lesson);
    } catch (const vit::Error& e) {
        throw vit::Error(path + ": " + e.what());
    }
    worker_->submit({lesson.model, lesson.photo, lesson.compare_photo, lesson.input_size, lesson.compare_photo.empty(),
                     true, path});
    s_.work.busy = true;
    pending_lesson_ = std::move(lesson);
}

// The lesson given on the command line runs before any window opens, so a
// photo that does not decode, an input size the model refuses or a second
// photo that fails is one line and exit 2, not a window showing something else.
void Window::open_startup_lesson(session::Lesson lesson, const std::string& path) {
    open_lesson(std::move(lesson), path);
    session::ModelWorker::Result r = worker_->wait();
    if (!r.error.empty()) throw vit::Error(r.error);  // it names the lesson first
    take_result(std::move(r));
}

void Window::carry_files(const session::FilesCommands& c) {
    using namespace session::cmd;
    std::visit(session::Overloaded{
                   [&](const SaveLesson& x) {
                       const std::string path = export_name(x.path, "", ".vitscope");
                       session::save_lesson(path, s_, x.embed_photo, session::output_rules(s_, x.replace));
                       s_.status = "Saved lesson " + deliver_saved(path);
                   },
                   [&](const OpenLesson& x) {
                       open_lesson(session::read_lesson(x.path), x.path);  // a bad file throws before anything changes
                   },
               },
               c);
}

}  // namespace app
