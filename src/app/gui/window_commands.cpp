// The explorer window's commands (session/dispatch/requests.h), each carried
// out by its room's handler (window_ROOM_commands.cpp), and the replace
// question every export may ask. The state alone changes through
// session::apply (actions.h).
#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>

#include "app/gui/window.h"
#include "app/gui/window_export.h"
#include "session/core/core_names.h"
#include "vit/base/error.h"

namespace app {

namespace fs = std::filesystem;

// Each command goes to its room's handler (window_ROOM_commands.cpp); a
// command no room handles does not compile. A failure is the error line; a
// script's writing verb that fails ends the script (exit 2); an export whose
// file exists asks first.
template <class X>
void Window::carry_in_room(const X& x) {
    using namespace session;
    if constexpr (variant_holds_v<CoreCommands, X>) carry_core(x);
    else if constexpr (variant_holds_v<QuestionsCommands, X>) carry_questions(x);
    else if constexpr (variant_holds_v<TourCommands, X>) carry_tour(x);
    else if constexpr (variant_holds_v<HomeworkCommands, X>) carry_homework(x);
    else if constexpr (variant_holds_v<LabCommands, X>) carry_lab(x);
    else if constexpr (variant_holds_v<ModelsCommands, X>) carry_models(x);
    else if constexpr (variant_holds_v<FilesCommands, X>) carry_files(x);
    else static_assert(!sizeof(X), "a command of a room the window does not carry out");
}

void Window::carry_out(const session::Command& c) {
    try {
        std::visit([&](const auto& x) { carry_in_room(x); }, c);
    } catch (const vit::OutputExists& e) {
        // A person asked for it (a script's verbs are checked before): ask before replacing.
        ask_replace(e.path, c);
    } catch (const std::exception& e) {
        s_.last_error = e.what();
        script_.writer_failed(e.what());  // a script's save or export that failed ends it, exit 2
    }
}

std::string Window::export_name(const std::string& path, const std::string& suffix, const char* ext) const {
    return path.empty() ? unique_path(s_.export_dir, session::selection_slug(s_) + suffix, ext) : path;
}

void Window::run_worker(session::ModelWorker::Request r) {
    worker_->submit(std::move(r));
    s_.work.busy = true;  // at once, so a script waiting for the worker sees it
}

// An export found its file there: the window asks, and "Replace" redoes the
// export on that file, not on a new free name.
void Window::ask_replace(const std::string& path, session::Command again) {
    s_.replace_question = path;
    std::visit(
        [&](auto& x) {
            if constexpr (requires { x.path = path; }) x.path = path;
        },
        again);
    replace_pending_ = std::move(again);
    // The question is a popup: laid out over a few frames, which an idle window would not draw.
    busy_frames_ = std::max(busy_frames_, 3);
}

// "Replace" in the window's question: the export the question was about, again, replacing the file.
void Window::redo_replacing() {
    if (!replace_pending_) return;
    session::Command again = *replace_pending_;
    std::visit(
        [](auto& x) {
            if constexpr (requires { x.replace; }) x.replace = true;
        },
        again);
    replace_pending_.reset();
    carry_out(again);
}
}  // namespace app
