// The explorer window's commands (session/commands.h): opening photos,
// models, lessons and tours, the worker, experiments, downloads and every
// export. The state alone changes through session::apply (actions.h).
#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>

#include "app/commands.h"
#include "app/resource_paths.h"
#include "app/gui/homework_export.h"
#include "app/gui/lesson_page.h"
#include "app/gui/sweep_gif.h"
#include "app/gui/tour_slides.h"
#include "app/gui/window.h"
#include "app/gui/window_export.h"
#include "session/exercises.h"
#include "session/live_exercise.h"
#include "session/output_rules.h"
#include "session/overloaded.h"
#include "vit/base/atomic_file.h"
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

// A finished download opens its model as File > Open model does; a failed one leaves one line.
void Window::poll_download() {
    s_.get_model.download = downloader_->view();
    auto r = downloader_->poll();
    if (!r) return;
    busy_frames_ = 3;
    if (!r->error.empty()) {
        s_.last_error = r->error;
        return;
    }
    s_.get_model.open = false;
    s_.status = "Downloaded " + r->model + " to " + r->dir;
    carry_out(session::cmd::OpenModel{r->dir});
}

void Window::get_model(const std::string& name) {
    const session::GetModelState& g = s_.get_model;
    const session::KnownModel* m = session::find_known_model(g.known, name);
    if (!m) throw vit::Error(g.list_error.empty() ? "no known model named '" + name + "'" : g.list_error);
    if (session::is_downloaded(*m, g.dir)) {   // already there: open it
        s_.get_model.open = false;
        carry_out(session::cmd::OpenModel{(fs::path(g.dir) / m->folder).string()});
        return;
    }
    if (!downloader_->start({*m, g.dir, g.mirror})) throw vit::Error("a download is running already");
    s_.get_model.download = downloader_->view();   // at once, so a script waiting for it sees it
}

// File > Export sweep (GIF): the shown map's layer and head (or mean), along
// the recorded path or over every patch, as `vitscope sweep` makes it.
void Window::export_sweep(const std::string& path, bool replace) {
    const session::Loaded& l = s_.loaded;
    if (!l.ready() || !l.image) throw vit::Error("nothing to sweep yet: no model has run on a photo");
    Sweep sweep;
    sweep.photo = l.image.get();
    sweep.photo_path = l.image_path;
    sweep.crop = l.crop;
    sweep.model = l.model.get();
    sweep.model_dir = l.model_dir;
    sweep.trace = l.trace.get();
    sweep.choice.layer = s_.sel.layer;
    sweep.choice.source = s_.sel.source;
    sweep.choice.head = s_.sel.head;
    sweep.choice.visible_heads = s_.sel.visible_heads();
    sweep.path = s_.sweep_path.tokens;
    if (s_.style.colormap != gfx::Colormap::Diverging) sweep.colormap = s_.style.colormap;
    const std::string out = path.empty() ? unique_path(s_.export_dir, session::selection_slug(s_) + "_sweep", ".gif") : path;
    const SweepWritten written = write_sweep(sweep, out, session::output_rules(s_, replace));
    s_.status = "Saved a sweep of " + std::to_string(written.frames) + " frames: " + fs::absolute(out).lexically_normal().string();
}

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

// Every command has its case here (no catch-all: a command without one does
// not compile). A failure is the error line; a script's writing verb that
// fails ends the script (exit 2); an export whose file exists asks first.
void Window::carry_out(const session::Command& c) {
    using namespace session::cmd;
    const bool timing = !opt_.frame_stats.empty();  // --frame-stats: samples kept for the run's end
    // The name an export gets when none was given: a descriptive one in the export folder.
    const auto or_named = [&](const std::string& path, const std::string& suffix, const char* ext) {
        return path.empty() ? unique_path(s_.export_dir, session::selection_slug(s_) + suffix, ext) : path;
    };
    const auto saved = [](const std::string& path) { return fs::absolute(path).lexically_normal().string(); };
    const auto run_worker = [&](session::ModelWorker::Request r) {
        worker_->submit(std::move(r));
        s_.work.busy = true;  // at once, so a script waiting for the worker sees it
    };
    try {
        std::visit(session::Overloaded{
            [&](const OpenImage& x) {
                run_worker({"", x.path, ""});
                if (timing) stats_.interaction.opened(s_, "open");
            },
            [&](const OpenModel& x) { run_worker({x.dir, "", ""}); },
            [&](const OpenCompare& x) { run_worker({"", "", x.path, -1}); },
            [&](const SetInputSize& x) {
                run_worker({"", "", "", x.px});
                if (timing) stats_.interaction.opened(s_, "size");
            },
            [&](const GetModel& x) { get_model(x.name); },
            [&](const CancelDownload&) { downloader_->cancel(); },
            [&](const RunExperiment& x) { experiments_->start(x.key, x.job); },
            [&](const CancelExperiment&) { experiments_->cancel(); },
            [&](const RunAnalysis& x) { analyses_->start(x.key, x.job); },
            [&](const Screenshot& x) {
                const std::string path = or_named(x.path, "_window", ".png");
                vit::check_output(path, session::output_rules(s_, x.replace));  // now, so the question comes at once
                pending_screenshot_ = path;
                pending_screenshot_replace_ = x.replace;
            },
            [&](const ExportFigure& x) {
                const std::string path = or_named(x.path, "", ".png");
                save_figure_png(s_, path, session::output_rules(s_, x.replace));
                s_.status = "Saved figure " + saved(path);
            },
            [&](const ExportQuestionFigure& x) {
                question_figure_.start(s_, x.page.empty() ? s_.question : x.page, x.path, session::output_rules(s_, x.replace));
                s_.exporting = question_figure_.exporting();  // at once, so a script waiting for it sees it
            },
            [&](const AnswerReplace& x) {
                s_.replace_question.clear();
                if (x.replace) redo_replacing();
                replace_pending_.reset();
            },
            [&](const OpenTour& x) {
                const std::string path = x.path.empty() ? default_tour_file() : x.path;
                session::apply(s_, session::act::StartTour{std::make_shared<const session::Tour>(session::read_tour(path))});
                open_tour_lesson();
            },
            [&](const ExportTourSlides& x) {
                // Drawn here, on the window's thread, in a few seconds: each step is one offscreen frame.
                session::AppState at = s_;
                // The exercises' tour is no lecture: the one that ships instead.
                if (!at.tour.tour || session::live_exercise_on(s_))
                    at.tour.tour = std::make_shared<const session::Tour>(session::read_tour(default_tour_file()));
                const std::string dir = x.dir.empty() ? unique_path(s_.export_dir, "tour_slides", "") : x.dir;
                // In classroom mode, lecture-size slides as `vitscope tour --classroom` draws them.
                write_tour_slides(at, dir, session::output_rules(s_, false), slide_size(s_.classroom));
                s_.status = "Saved the tour's slides in " + saved(dir);
            },
            [&](const ExportSweep& x) { export_sweep(x.path, x.replace); },
            [&](const SaveLesson& x) {
                const std::string path = or_named(x.path, "", ".vitscope");
                session::save_lesson(path, s_, x.embed_photo, session::output_rules(s_, x.replace));
                s_.status = "Saved lesson " + saved(path);
            },
            [&](const OpenLesson& x) {
                open_lesson(session::read_lesson(x.path), x.path);  // a bad file throws before anything changes
            },
            [&](const ExportLesson& x) {
                // The page for what the window shows, starting at its selection; the tour on show or the one that ships.
                const std::string path = or_named(x.path, "_lesson", ".html");
                const auto tour = s_.tour.tour && !session::live_exercise_on(s_)
                                      ? s_.tour.tour
                                      : std::make_shared<const session::Tour>(session::read_tour(default_tour_file()));
                vit::write_output(path, lesson_page_html(s_, tour.get()), session::output_rules(s_, x.replace));
                s_.status = "Saved the lesson page " + saved(path);
            },
            [&](const ExportHomework& x) {
                const std::string dir = x.dir.empty() ? unique_path(s_.export_dir, session::selection_slug(s_) + "_homework", "") : x.dir;
                write_homework(s_, dir, session::output_rules(s_, false));
                s_.status = "Saved the homework (page, worksheet, answer key) in " + saved(dir);
            },
            [&](const OpenExercises& x) {
                // Read and set on this photo first, so a bad file is one line and nothing changes.
                const std::string path = x.path.empty() ? default_exercises_file() : x.path;
                auto set = std::make_shared<const session::ExerciseSet>(session::read_exercises(path));
                session::prepare_live_exercises(s_, *set);
                session::apply(s_, session::act::Live{session::live::Start{set, path}});
            },
            [&](const Lab& x) {  // the Learning lab: runs, training, a checkpoint to explore
                if (auto explore = lab_->handle(s_, x.command)) run_worker({explore->model_dir, explore->image, ""});
            },
            [&](const Quit&) { s_.quit = true; },
        }, c);
    } catch (const vit::OutputExists& e) {
        // A person asked for it (a script's verbs are checked before): ask before replacing.
        ask_replace(e.path, c);
    } catch (const std::exception& e) {
        s_.last_error = e.what();
        script_.writer_failed(e.what());  // a script's save or export that failed ends it, exit 2
    }
}

// An export found its file there: the window asks, and "Replace" redoes the
// export on that file, not on a new free name.
void Window::ask_replace(const std::string& path, session::Command again) {
    s_.replace_question = path;
    std::visit([&](auto& x) {
        if constexpr (requires { x.path = path; }) x.path = path;
    }, again);
    replace_pending_ = std::move(again);
    // The question is a popup: laid out over a few frames, which an idle window would not draw.
    busy_frames_ = std::max(busy_frames_, 3);
}

// "Replace" in the window's question: the export the question was about, again, replacing the file.
void Window::redo_replacing() {
    if (!replace_pending_) return;
    session::Command again = *replace_pending_;
    std::visit([](auto& x) {
        if constexpr (requires { x.replace; }) x.replace = true;
    }, again);
    replace_pending_.reset();
    carry_out(again);
}
}  // namespace app
