// app::run_window: the explorer window. GLFW + Dear ImGui on OpenGL 3.3; the
// model runs on the ModelWorker's thread; the AppState changes only through
// the actions the panels, shortcuts, drops and the script emit, applied once
// per frame after drawing.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <epoxy/gl.h>
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "app/resource_paths.h"
#include "gfx/textures.h"
#include "interaction_timing.h"
#include "session/lesson.h"
#include "session/live_exercise.h"
#include "homework_export.h"
#include "lesson_page.h"
#include "session/model_download.h"
#include "session/model_worker.h"
#include "session/output_rules.h"
#include "session/settings.h"
#include "session/state.h"
#include "session/tour_query.h"
#include "sweep_gif.h"
#include "tour_slides.h"
#include "session/lab_controller.h"
#include "ui/panels/main_view.h"
#include "ui/widgets/clip_audit.h"
#include "ui/widgets/draw_frame.h"
#include "ui/widgets/fonts.h"
#include "ui/widgets/gl_cache.h"
#include "ui/widgets/theme.h"
#include "vit/base/atomic_file.h"
#include "vit/base/default_model.h"
#include "vit/base/error.h"
#include "window_export.h"
#include "window_input.h"
#include "window_options.h"
#include "window_question_figure.h"
#include "window_script.h"

namespace app {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr float kClassroomScale = 1.5f;

// While the model or an experiment works, the window redraws its spinner and
// progress bars, but drawing takes at most an eighth of the time: a frame that
// costs 30 ms (a 1080p window under a software renderer) is drawn about 4
// times a second, a GPU's 2 ms frame 30 times. Each frame drawn beside the work
// takes cores from it; input and the work's "done" still wake the loop at once.
double busy_frame_interval(float frame_ms) {
    return std::clamp(7.0 * frame_ms / 1000.0, 1.0 / 30, 0.25);
}

// Work that ends within this long shows its result in the next frame with
// none between; longer work shows its spinner from then on. Between a tenth
// of a second (what a person takes as instant) and one (what keeps their
// flow of thought) a wait needs no sign of progress (Nielsen's limits), and
// a spinner there only flashes: its frame of a 1080p window under a software
// renderer takes both cores from the work for about 30 ms (a 448 px forward
// pass, about 0.2 s here, came out that much later).
constexpr double kSpinnerDelay = 0.3;

std::string g_glfw_error;   // GLFW reports errors through a callback without user data
void on_glfw_error(int, const char* text) { g_glfw_error = text ? text : "unknown GLFW error"; }


// --frame-stats FILE: frame times over the run, and apart those drawn while a
// Questions page's experiment or analysis ran off the window's thread; and
// the time from each open and select to the frame showing its maps.
struct FrameStats {
    std::vector<double> ms;
    std::vector<bool> beside_work;  // per frame: an experiment or analysis was running
    InteractionTiming interaction;

    static nlohmann::json summary(std::vector<double> v) {
        nlohmann::json j;
        j["frames"] = v.size();
        if (v.empty()) return j;
        double sum = 0;
        for (double x : v) sum += x;
        std::sort(v.begin(), v.end());
        j["mean_ms"] = sum / v.size();
        j["p95_ms"] = v[std::min(v.size() - 1, static_cast<size_t>(0.95 * v.size()))];
        j["max_ms"] = v.back();
        return j;
    }
    void write(const std::string& path, int w, int h) {
        // The first frames build fonts and shaders; they say nothing about steady use.
        const size_t first = std::min<size_t>(ms.size(), 10);
        std::vector<double> all(ms.begin() + first, ms.end()), busy, idle;
        for (size_t i = first; i < ms.size(); ++i) (beside_work[i] ? busy : idle).push_back(ms[i]);
        nlohmann::json j = summary(all);
        j["window"] = {w, h};
        j["while_experiments_run"] = summary(busy);
        j["otherwise"] = summary(idle);
        j.update(interaction.json());
        vit::write_file_atomic(path, j.dump(2) + "\n");
    }
};

// The largest framebuffer, in pixels, this OpenGL draws whole: the window's
// viewport, and the maps and photo layers, which render into textures as
// large as their panels.
std::pair<int, int> gl_framebuffer_limit() {
    GLint texture = 0, renderbuffer = 0, viewport[2] = {0, 0};
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &texture);
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &renderbuffer);
    glGetIntegerv(GL_MAX_VIEWPORT_DIMS, viewport);
    return {std::min({texture, renderbuffer, viewport[0]}), std::min({texture, renderbuffer, viewport[1]})};
}

class Window {
public:
    Window(const CliArgs& args, const WindowOptions& opt);
    ~Window();
    int run();

private:
    void fit_gl_limits();
    void init_imgui();
    void load_fonts();
    void begin_frame();
    void handle(const session::Action& a);
    void apply_all(std::vector<session::Action>& actions);
    void write_state_file();
    void get_model(const std::string& name);
    void export_sweep(const std::string& path, bool replace);
    void open_lesson(session::Lesson lesson, const std::string& path);
    void open_startup_lesson(session::Lesson lesson, const std::string& path);
    void take_result(session::ModelWorker::Result r);
    void open_tour_lesson();
    void redo_replacing();
    void ask_replace(const std::string& path, session::Action again);
    std::optional<session::Action> replace_pending_;  // the export the replace question is about
    void poll_download();
    bool busy() const {
        return s_.work.busy || !s_.experiments.running.empty() || !s_.exporting.empty() || s_.get_model.download.running() ||
               !s_.analyses.running.empty() || session::awaiting_relevant_choice(s_);
    }
    void update_title();

    WindowOptions opt_;
    session::Settings settings_;
    std::string settings_file_;
    GLFWwindow* win_ = nullptr;
    session::AppState s_;
    // Need the GL context (and the worker, the event loop): made after the
    // window, released in ~Window before it goes.
    std::atomic<bool> window_open_{false};   // the workers wake the event loop only once there is one
    std::unique_ptr<session::ModelWorker> worker_;
    std::unique_ptr<session::ExperimentRunner> experiments_;
    std::unique_ptr<session::ModelDownloader> downloader_;
    std::unique_ptr<session::ExperimentRunner> analyses_;   // the pages' slow numbers; never stops an experiment
    std::unique_ptr<session::LabController> lab_;           // the Learning lab: its runs, its training thread
    std::unique_ptr<ui::GlCache> gpu_;
    std::unique_ptr<ui::MainView> view_;
    QuestionFigureExport question_figure_;
    ui::Fonts fonts_;
    float ui_scale_ = 1, fb_scale_ = 1;
    bool fonts_classroom_ = false;    // the classroom mode the fonts were built for
    session::AppState::Theme styled_theme_ = session::AppState::Theme::Dark;  // the theme the style was made for
    ScriptRunner script_;
    std::string pending_screenshot_;
    // A lesson whose model and photos the worker is running: applied when they arrive.
    std::optional<session::Lesson> pending_lesson_;
    std::optional<int> lesson_tour_step_;  // the tour step the pending lesson was opened for
    bool pending_screenshot_replace_ = false;
    std::string last_state_;
    int last_title_generation_ = -1;
    int busy_frames_ = 3;             // frames still to draw before waiting for events
    bool was_busy_ = false;
    Clock::time_point busy_since_;    // when the work now running began
    bool vsync_ = false;
    FrameStats stats_;
};

Window::Window(const CliArgs& args, const WindowOptions& opt) : opt_(opt), script_(script_from_cli(args)) {
    if (opt_.use_settings) {
        settings_file_ = session::settings_path();
        std::string warning;
        if (!settings_file_.empty()) settings_ = session::load_settings(settings_file_, warning);
        if (!warning.empty()) {
            s_.status = warning;
            std::fprintf(stderr, "vitscope: warning: %s\n", warning.c_str());
        }
    }
    s_.style = settings_.style;
    s_.theme = settings_.theme;
    // Offered once, to a person (not to a scripted run, nor with --no-settings or --tour).
    s_.tour_offered = settings_.tour_offered || !opt_.use_settings || !script_.finished() || !opt_.tour.empty();
    s_.temperature = settings_.temperature;
    s_.export_dir = path_exists(settings_.export_dir) ? settings_.export_dir : ".";
    s_.browser.dir = settings_.browse_dir;
    s_.photos_dir = sample_photos_dir();
    s_.classroom = opt_.classroom;
    // A broken tour file is refused before any window opens: one line naming the line.
    if (!opt_.tour.empty())
        session::apply(s_, session::act::StartTour{std::make_shared<const session::Tour>(session::read_tour(opt_.tour))});
    // So is a lesson that cannot open: one line naming what is wrong.
    std::optional<session::Lesson> lesson;
    if (!args.positional.empty() && session::is_lesson_path(args.positional.front()))
        lesson = session::read_lesson(args.positional.front());
    const std::string model = lesson ? lesson->model : startup_model(args, settings_);
    worker_ = std::make_unique<session::ModelWorker>([this] {
        if (window_open_) glfwPostEmptyEvent();
    });
    if (lesson) open_startup_lesson(std::move(*lesson), args.positional.front());
    s_.models_dir = fs::path(model).parent_path().string();
    try {
        s_.get_model.known = session::read_known_models(known_models_file());
    } catch (const std::exception& e) {
        s_.get_model.list_error = e.what();
    }
    s_.get_model.dir = vit::user_models_dir();
    if (const char* mirror = std::getenv("VITSCOPE_MODEL_MIRROR"); mirror && *mirror) s_.get_model.mirror = mirror;

    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit()) throw vit::Error("cannot open a window: " + (g_glfw_error.empty() ? "no display?" : g_glfw_error));
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
    int w = opt_.width ? opt_.width : (settings_.window_width >= 640 ? settings_.window_width : 1600);
    int h = opt_.height ? opt_.height : (settings_.window_height >= 480 ? settings_.window_height : 1000);
    if (opt_.width) glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_FALSE);  // an exact size was asked for
    win_ = glfwCreateWindow(w, h, "vitscope", nullptr, nullptr);
    if (!win_) {
        glfwTerminate();
        throw vit::Error("cannot open a window: " + (g_glfw_error.empty() ? "no OpenGL 3.3 context" : g_glfw_error));
    }
    window_open_ = true;
    glfwMakeContextCurrent(win_);
    fit_gl_limits();
    // Scripted runs measure and finish as fast as they can; people get vsync.
    vsync_ = script_.finished() && opt_.frame_stats.empty();
    glfwSwapInterval(vsync_ ? 1 : 0);
    init_imgui();
    // Tests read which texts are cut from the state file; nobody else needs the measuring.
    ui::clip_audit::enable(!opt_.state_file.empty());

    gpu_ = std::make_unique<ui::GlCache>();
    if (!gpu_->error().empty()) s_.last_error = gpu_->error();
    view_ = std::make_unique<ui::MainView>();
    experiments_ = std::make_unique<session::ExperimentRunner>([] { glfwPostEmptyEvent(); });
    downloader_ = std::make_unique<session::ModelDownloader>([] { glfwPostEmptyEvent(); });
    analyses_ = std::make_unique<session::ExperimentRunner>([] { glfwPostEmptyEvent(); });
    lab_ = std::make_unique<session::LabController>([] { glfwPostEmptyEvent(); });
    if (!lesson) worker_->submit({model, startup_image(args, settings_), "", -1});
    gfx::warm_up_photo_textures();  // while the worker loads the model and the first photo
    open_tour_lesson();  // --tour whose first step starts from a lesson
    s_.work.busy = true;
}

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

Window::~Window() {
    lab_.reset();          // joins its training thread (a run not finished is removed)
    downloader_.reset();   // they join their threads before anything they could notify goes away
    analyses_.reset();
    experiments_.reset();
    worker_.reset();
    view_.reset();    // GL objects: the context must still exist
    gpu_.reset();
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(win_);
    glfwTerminate();
}

// The framebuffer GLFW gave, against what OpenGL draws: beyond it, a size
// --window-size asked for is refused (one line, before any drawing) and a
// remembered one shrunk; the window cannot be resized past it later.
void Window::fit_gl_limits() {
    const auto [max_w, max_h] = gl_framebuffer_limit();
    int fw = 0, fh = 0, ww = 0, wh = 0;
    glfwGetFramebufferSize(win_, &fw, &fh);
    glfwGetWindowSize(win_, &ww, &wh);
    // The limits in window coordinates (the framebuffer is denser on macOS and Wayland).
    const int limit_w = fw > 0 ? static_cast<int>(static_cast<int64_t>(max_w) * ww / fw) : max_w;
    const int limit_h = fh > 0 ? static_cast<int>(static_cast<int64_t>(max_h) * wh / fh) : max_h;
    glfwSetWindowSizeLimits(win_, GLFW_DONT_CARE, GLFW_DONT_CARE, limit_w, limit_h);
    if (fw <= max_w && fh <= max_h) return;
    if (!opt_.width) {
        glfwSetWindowSize(win_, std::min(ww, limit_w), std::min(wh, limit_h));
        return;
    }
    const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    const std::string why = "--window-size " + std::to_string(opt_.width) + "x" + std::to_string(opt_.height) +
                            ": a framebuffer of " + std::to_string(fw) + " x " + std::to_string(fh) +
                            " pixels; this OpenGL (" + (renderer ? renderer : "unknown renderer") + ") draws at most " +
                            std::to_string(max_w) + " x " + std::to_string(max_h) +
                            " (GL_MAX_TEXTURE_SIZE, GL_MAX_VIEWPORT_DIMS): give at most " +
                            std::to_string(limit_w) + "x" + std::to_string(limit_h);
    glfwDestroyWindow(win_);
    win_ = nullptr;
    glfwTerminate();
    throw vit::Error(why);
}

void Window::init_imgui() {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;   // layout is computed, nothing to remember there
    install_activity_callbacks(win_);   // before the backend, which chains to them
    ImGui_ImplGlfw_InitForOpenGL(win_, true);
    install_key_filter(win_);
    ImGui_ImplOpenGL3_Init("#version 330 core");
    load_fonts();
}

void Window::load_fonts() {
    int ww = 0, wh = 0, fw = 0, fh = 0;
    glfwGetWindowSize(win_, &ww, &wh);
    glfwGetFramebufferSize(win_, &fw, &fh);
    float xs = 1, ys = 1;
    glfwGetWindowContentScale(win_, &xs, &ys);
    fb_scale_ = ww > 0 ? static_cast<float>(fw) / ww : 1.f;
    // Where the framebuffer is denser than window coordinates (macOS, Wayland)
    // the content scale is already in it; elsewhere (X11, Windows) we scale.
    ui_scale_ = opt_.ui_scale > 0 ? opt_.ui_scale : std::clamp(xs / std::max(1.f, fb_scale_), 0.75f, 4.f);
    // Classroom mode: everything half again as large, read from the back of a room.
    fonts_classroom_ = s_.classroom;
    if (s_.classroom) ui_scale_ *= kClassroomScale;
    std::string warning;
    fonts_ = ui::load_fonts(ui::kFontSize * ui_scale_, fb_scale_, warning);
    if (!warning.empty()) s_.status = warning;
    ImGui::GetStyle() = ImGuiStyle();
    styled_theme_ = s_.theme;
    ui::apply_theme(s_.theme, ui_scale_);
}

void Window::update_title() {
    if (s_.loaded.generation == last_title_generation_) return;
    last_title_generation_ = s_.loaded.generation;
    std::string title = "vitscope";
    if (!s_.loaded.image_path.empty()) title += " — " + fs::path(s_.loaded.image_path).filename().string();
    if (!s_.loaded.model_dir.empty()) title += " · " + fs::path(s_.loaded.model_dir).filename().string();
    glfwSetWindowTitle(win_, title.c_str());
}

void Window::begin_frame() {
    // Progress before the result: if the job ended in between, poll() still sees it.
    const session::WorkProgress progress = worker_->progress();
    if (auto r = worker_->poll()) take_result(std::move(*r));
    s_.work = progress;
    s_.experiments = experiments_->view();
    question_figure_.step(s_, *experiments_);
    if (auto asked = question_figure_.take_question()) ask_replace(asked->path, *asked);
    if (auto why = question_figure_.take_failure()) script_.figure_failed(*why);  // a script's export-question: exit 2
    s_.exporting = question_figure_.exporting();
    poll_download();
    s_.analyses = analyses_->view();
    if (auto job = session::follow_relevant_choice(s_)) analyses_->start(job->key, std::move(job->job));
    update_title();
    if (take_rescale() || fonts_classroom_ != s_.classroom || styled_theme_ != s_.theme) {
        load_fonts();
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        ImGui_ImplOpenGL3_CreateFontsTexture();
    }
    lab_->sync(s_);  // the Learning lab: the training's progress, what its timeline shows
    gpu_->sync(s_);
}

// What the worker's job brought: the new model, photos and trace, or one line of error.
void Window::take_result(session::ModelWorker::Result r) {
    if (r.changed) session::adopt(s_, std::move(r.loaded));
    if (r.compared_changed) s_.compared = std::move(r.compared);
    s_.last_error = r.error;
    // The lesson's selection once its own photo and model are the ones shown; a failed run drops it.
    if (pending_lesson_ && (!r.error.empty() || (s_.loaded.image_path == pending_lesson_->photo &&
                                                 s_.loaded.model_dir == pending_lesson_->model))) {
        if (r.error.empty()) session::apply_lesson(s_, *pending_lesson_);
        // A tour step that starts from the lesson sets its own keys over it, if it is still on show.
        if (r.error.empty() && lesson_tour_step_ == s_.tour.step) session::reapply_tour_step(s_);
        pending_lesson_.reset();
        lesson_tour_step_.reset();
    }
    if (r.error.empty()) s_.status = "Ready";
    busy_frames_ = 3;
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
    handle(session::act::OpenModel{r->dir});
}

void Window::get_model(const std::string& name) {
    const session::GetModelState& g = s_.get_model;
    const session::KnownModel* m = session::find_known_model(g.known, name);
    if (!m) throw vit::Error(g.list_error.empty() ? "no known model named '" + name + "'" : g.list_error);
    if (session::is_downloaded(*m, g.dir)) {   // already there: open it
        s_.get_model.open = false;
        handle(session::act::OpenModel{(fs::path(g.dir) / m->folder).string()});
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

void Window::handle(const session::Action& a) {
    const bool timing = !opt_.frame_stats.empty();  // --frame-stats: samples kept for the run's end
    if (session::apply(s_, a)) {
        if (timing && std::holds_alternative<session::act::SelectQuery>(a)) stats_.interaction.selected(s_);
        open_tour_lesson();
        return;
    }
    try {
        if (auto* x = std::get_if<session::act::OpenImage>(&a)) {
            worker_->submit({"", x->path, ""});
            s_.work.busy = true;  // at once, so a script waiting for the worker sees it
            if (timing) stats_.interaction.opened(s_, "open");
        } else if (auto* x = std::get_if<session::act::OpenModel>(&a)) {
            worker_->submit({x->dir, "", ""});
            s_.work.busy = true;
        } else if (auto* x = std::get_if<session::act::OpenCompare>(&a)) {
            worker_->submit({"", "", x->path, -1});
            s_.work.busy = true;
        } else if (auto* x = std::get_if<session::act::GetModel>(&a)) {
            get_model(x->name);
        } else if (std::holds_alternative<session::act::CancelDownload>(a)) {
            downloader_->cancel();
        } else if (auto* x = std::get_if<session::act::SetInputSize>(&a)) {
            worker_->submit({"", "", "", x->px});
            s_.work.busy = true;
            if (timing) stats_.interaction.opened(s_, "size");
        } else if (auto* x = std::get_if<session::act::Screenshot>(&a)) {
            const std::string path = x->path.empty() ? unique_path(s_.export_dir, session::selection_slug(s_) + "_window", ".png") : x->path;
            vit::check_output(path, session::output_rules(s_, x->replace));  // now, so the question comes at once
            pending_screenshot_ = path;
            pending_screenshot_replace_ = x->replace;
        } else if (auto* x = std::get_if<session::act::ExportFigure>(&a)) {
            const std::string path = x->path.empty() ? unique_path(s_.export_dir, session::selection_slug(s_), ".png") : x->path;
            save_figure_png(s_, path, session::output_rules(s_, x->replace));
            s_.status = "Saved figure " + fs::absolute(path).lexically_normal().string();
        } else if (auto* x = std::get_if<session::act::ExportQuestionFigure>(&a)) {
            question_figure_.start(s_, x->page.empty() ? s_.question : x->page, x->path, session::output_rules(s_, x->replace));
            s_.exporting = question_figure_.exporting();  // at once, so a script waiting for it sees it
        } else if (auto* x = std::get_if<session::act::RunExperiment>(&a)) {
            experiments_->start(x->key, x->job);
        } else if (std::holds_alternative<session::act::CancelExperiment>(a)) {
            experiments_->cancel();
        } else if (auto* x = std::get_if<session::act::RunAnalysis>(&a)) {
            analyses_->start(x->key, x->job);
        } else if (auto* x = std::get_if<session::act::OpenTour>(&a); x || std::holds_alternative<session::act::AnswerTourOffer>(a)) {
            const std::string path = !x || x->path.empty() ? default_tour_file() : x->path;
            session::apply(s_, session::act::StartTour{std::make_shared<const session::Tour>(session::read_tour(path))});
            open_tour_lesson();
        } else if (auto* x = std::get_if<session::act::SaveLesson>(&a)) {
            const std::string path =
                x->path.empty() ? unique_path(s_.export_dir, session::selection_slug(s_), ".vitscope") : x->path;
            session::save_lesson(path, s_, x->embed_photo, session::output_rules(s_, x->replace));
            s_.status = "Saved lesson " + fs::absolute(path).lexically_normal().string();
        } else if (auto* x = std::get_if<session::act::OpenLesson>(&a)) {
            open_lesson(session::read_lesson(x->path), x->path);  // a bad file throws before anything changes
        } else if (auto* x = std::get_if<session::act::ExportSweep>(&a)) {
            export_sweep(x->path, x->replace);
        } else if (auto* x = std::get_if<session::act::ExportTourSlides>(&a)) {
            // Drawn here, on the window's thread, in a few seconds: each step is one offscreen frame.
            session::AppState at = s_;
            // The exercises' tour is no lecture: the one that ships instead.
            if (!at.tour.tour || session::live_exercise_on(s_)) at.tour.tour = std::make_shared<const session::Tour>(session::read_tour(default_tour_file()));
            const std::string dir = x->dir.empty() ? unique_path(s_.export_dir, "tour_slides", "") : x->dir;
            // In classroom mode, lecture-size slides as `vitscope tour --classroom` draws them.
            write_tour_slides(at, dir, session::output_rules(s_, false), slide_size(s_.classroom));
            s_.status = "Saved the tour's slides in " + fs::absolute(dir).lexically_normal().string();
        } else if (auto* x = std::get_if<session::act::AnswerReplace>(&a)) {
            s_.replace_question.clear();
            s_.reported.replace_buttons.clear();
            if (x->replace) redo_replacing();
            replace_pending_.reset();
        } else if (auto* x = std::get_if<session::act::ExportLesson>(&a)) {
            // The page for what the window shows, starting at its selection; the tour on show or the one that ships.
            const std::string path = x->path.empty() ? unique_path(s_.export_dir, session::selection_slug(s_) + "_lesson", ".html") : x->path;
            const auto tour = s_.tour.tour && !session::live_exercise_on(s_) ? s_.tour.tour : std::make_shared<const session::Tour>(session::read_tour(default_tour_file()));
            vit::write_output(path, lesson_page_html(s_, tour.get()), session::output_rules(s_, x->replace));
            s_.status = "Saved the lesson page " + fs::absolute(path).lexically_normal().string();
        } else if (auto* x = std::get_if<session::act::ExportHomework>(&a)) {
            const std::string dir = x->dir.empty() ? unique_path(s_.export_dir, session::selection_slug(s_) + "_homework", "") : x->dir;
            write_homework(s_, dir, session::output_rules(s_, false));
            s_.status = "Saved the homework (page, worksheet, answer key) in " + fs::absolute(dir).lexically_normal().string();
        } else if (auto* x = std::get_if<session::act::OpenExercises>(&a)) {
            // Live exercise: read and set on this photo first, so a bad file is one line and nothing changes.
            const std::string path = x->path.empty() ? default_exercises_file() : x->path;
            auto set = std::make_shared<const session::ExerciseSet>(session::read_exercises(path));
            session::prepare_live_exercises(s_, *set);
            session::apply(s_, session::act::Live{session::live::Start{set, path}});
        } else if (auto* x = std::get_if<session::act::Lab>(&a)) {  // the Learning lab: runs, training, a checkpoint to explore
            if (auto explore = lab_->handle(s_, x->action)) {
                worker_->submit({explore->model_dir, explore->image, ""});
                s_.work.busy = true;
            }
        } else if (std::holds_alternative<session::act::Quit>(a)) {
            s_.quit = true;
        }
    } catch (const vit::OutputExists& e) {
        // A person asked for it (a script's verbs are checked before): ask before replacing.
        ask_replace(e.path, a);
    } catch (const std::exception& e) {
        s_.last_error = e.what();
        script_.writer_failed(e.what());  // a script's save or export that failed ends it, exit 2
    }
}

// An export found its file there: the window asks, and "Replace" redoes the
// export on that file, not on a new free name.
void Window::ask_replace(const std::string& path, session::Action again) {
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
    session::Action again = *replace_pending_;
    std::visit([](auto& x) {
        if constexpr (requires { x.replace; }) x.replace = true;
    }, again);
    replace_pending_.reset();
    handle(again);
}

void Window::apply_all(std::vector<session::Action>& actions) {
    bool changed = session::handle_frame(s_, actions, [this](const session::Action& a) { handle(a); });
    // Drops: a folder is a model (loading it says what is missing), anything else a photo.
    for (const std::string& p : take_dropped_paths()) {
        std::error_code ec;
        if (fs::is_directory(p, ec)) handle(session::act::OpenModel{p});
        else handle(session::act::OpenImage{p});
        changed = true;
    }
    actions.clear();
    if (changed) busy_frames_ = 3;
}

void Window::write_state_file() {
    if (opt_.state_file.empty()) return;
    std::string text = session::state_json(s_);
    if (text == last_state_) return;
    try {
        vit::write_file_atomic(opt_.state_file, text + "\n");
        last_state_ = std::move(text);
    } catch (const std::exception& e) {
        s_.last_error = e.what();
    }
}

int Window::run() {
    std::vector<session::Action> actions;
    while (!s_.quit && !glfwWindowShouldClose(win_)) {
        // Sleep until something happens, unless a script, an animation or a change needs frames.
        // A script runs frame after frame, except while it waits for background work: then the
        // window draws its progress as for a person, and leaves the cores to the work.
        const bool script_running = !script_.finished() && !(script_.waiting() && busy());
        // A change settles over a few frames (hover, popups closing); once work has started,
        // the frame that showed the change is enough and the rest come paced.
        if (busy()) busy_frames_ = std::min(busy_frames_, 1);
        if (busy() && !was_busy_) busy_since_ = Clock::now();
        was_busy_ = busy();
        const bool continuous = script_running || busy_frames_ > 0;
        const double spinner_in =
            busy() ? kSpinnerDelay - std::chrono::duration<double>(Clock::now() - busy_since_).count() : 0;
        if (continuous && !script_running && spinner_in > 0) glfwWaitEventsTimeout(spinner_in);  // done, input or time
        else if (continuous) glfwPollEvents();
        else if (busy()) glfwWaitEventsTimeout(busy_frame_interval(s_.frame_ms));
        else glfwWaitEventsTimeout(0.5);
        busy_frames_ = std::max(0, busy_frames_ - 1);
        // Woken by the timeout with nothing new: the picture is still right.
        const bool input = take_activity();
        if (!continuous && !busy() && !input) continue;
        if (input) busy_frames_ = std::max(busy_frames_, 2);  // ImGui settles hover and popups over a few frames
        if (glfwGetWindowAttrib(win_, GLFW_ICONIFIED)) continue;

        const auto t0 = Clock::now();
        begin_frame();
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        script_.step(s_, actions);
        gpu_->map_tally() = {};
        ui::clip_audit::begin_frame();
        view_->draw(ui::Frame{s_, actions, *gpu_, fonts_, ui_scale_, fb_scale_});
        ImGui::Render();
        s_.clipped_text = ui::clip_audit::findings();
        s_.longest_text = ui::clip_audit::longest_text();

        int fw = 0, fh = 0;
        glfwGetFramebufferSize(win_, &fw, &fh);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(0, 0, fw, fh);
        ui::draw_frame_over_panel_colour();
        if (!pending_screenshot_.empty()) {
            try {
                save_window_png(pending_screenshot_, fw, fh, session::output_rules(s_, pending_screenshot_replace_));
                s_.status = "Saved screenshot " + fs::absolute(pending_screenshot_).lexically_normal().string();
            } catch (const vit::OutputExists& e) {  // it appeared since the check: ask
                ask_replace(e.path, session::act::Screenshot{pending_screenshot_});
            } catch (const std::exception& e) {
                s_.last_error = e.what();
                script_.writer_failed(e.what());
            }
            pending_screenshot_.clear();
        }
        glfwSwapBuffers(win_);
        if (release_held_keys(win_)) busy_frames_ = std::max(busy_frames_, 2);

        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        stats_.ms.push_back(ms);
        stats_.beside_work.push_back(!s_.experiments.running.empty() || !s_.analyses.running.empty());
        if (!opt_.frame_stats.empty()) stats_.interaction.frame_end(s_, gpu_->map_tally(), t0);
        s_.frame_ms = s_.frames++ ? 0.9f * s_.frame_ms + 0.1f * static_cast<float>(ms) : static_cast<float>(ms);
        apply_all(actions);
        s_.text_input = ImGui::GetIO().WantTextInput;
        write_state_file();
        if (!script_.error().empty()) break;
        if (!vsync_ && script_.finished() && opt_.frame_stats.empty()) glfwSwapInterval(1), vsync_ = true;
    }

    int w = 0, h = 0;
    glfwGetWindowSize(win_, &w, &h);
    if (!opt_.frame_stats.empty()) stats_.write(opt_.frame_stats, w, h);
    if (!settings_file_.empty()) {
        try {
            session::save_settings(settings_file_, session::settings_from_state(s_, w, h));
        } catch (const std::exception& e) {
            std::fprintf(stderr, "vitscope: warning: settings not saved: %s\n", e.what());
        }
    }
    if (!script_.error().empty()) throw vit::Error("script: " + script_.error());
    return 0;
}

}  // namespace

int run_window(const CliArgs& args) {
    const WindowOptions opt = parse_window_options(args);
    Window window(args, opt);
    return window.run();
}

}  // namespace app
