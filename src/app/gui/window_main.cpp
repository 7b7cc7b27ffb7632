// app::run_window: the explorer window. GLFW + Dear ImGui on OpenGL 3.3; the
// model runs on the ModelWorker's thread; the AppState changes only through
// the actions the panels, shortcuts, drops and the script emit, applied once
// per frame after drawing; their commands are carried out then
// (window_commands.cpp).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gfx/gl.h"
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include "app/subcommands.h"
#include "app/gui/window.h"
#include "app/gui/window_export.h"
#include "app/gui/window_input.h"
#include "app/gui/window_platform.h"
#include "gfx/matrix_renderer.h"
#include "gfx/textures.h"
#include "session/dispatch/actions.h"
#include "session/core/output_rules.h"
#include "session/dispatch/state_file.h"
#include "session/tour/tour_show.h"
#include "ui/panels/main_view.h"
#include "ui/widgets/clip_audit.h"
#include "ui/widgets/draw_frame.h"
#include "ui/widgets/fonts.h"
#include "ui/widgets/gl_cache.h"
#include "ui/widgets/theme.h"
#include "vit/base/atomic_file.h"
#include "vit/base/default_model.h"
#include "vit/base/error.h"
#include "vit/base/printable.h"
#include "session/dispatch/adopt.h"
#include "session/dispatch/apply_lesson.h"

namespace app {
namespace {

namespace fs = std::filesystem;

constexpr float kClassroomScale = 1.5f;

// While the model or an experiment works, the window redraws its spinner and
// progress bars, but drawing takes at most an eighth of the time: a frame that
// costs 30 ms (a 1080p window under a software renderer) is drawn about 4
// times a second, a GPU's 2 ms frame 30 times. Each frame drawn beside the work
// takes cores from it; input and the work's "done" still wake the loop at once.
double busy_frame_interval(float frame_ms) { return std::clamp(7.0 * frame_ms / 1000.0, 1.0 / 30, 0.25); }

// Work that ends within this long shows its result in the next frame with
// none between; longer work shows its spinner from then on. Between a tenth
// of a second (what a person takes as instant) and one (what keeps their
// flow of thought) a wait needs no sign of progress (Nielsen's limits), and
// a spinner there only flashes: its frame of a 1080p window under a software
// renderer takes both cores from the work for about 30 ms (a 448 px forward
// pass, about 0.2 s here, came out that much later).
constexpr double kSpinnerDelay = 0.3;

std::string g_glfw_error;  // GLFW reports errors through a callback without user data
void on_glfw_error(int, const char* text) { g_glfw_error = text ? text : "unknown GLFW error"; }

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

}  // namespace

Window::Window(const CliArgs& args, const WindowOptions& opt) : opt_(opt), script_(script_from_cli(args)) {
    if (opt_.use_settings) {
        settings_file_ = session::settings_path();
        std::string warning;
        if (!settings_file_.empty()) settings_ = session::load_settings(settings_file_, warning);
        if (!warning.empty()) {
            s_.status = warning;
            std::fprintf(stderr, "vitscope: warning: %s\n", vit::printable(warning).c_str());
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
        session::apply(s_,
                       session::act::StartTour{std::make_shared<const session::Tour>(session::read_tour(opt_.tour))});
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
    set_window_hints(opt_.width != 0);
    int w = opt_.width ? opt_.width : (settings_.window_width >= 640 ? settings_.window_width : 1600);
    int h = opt_.height ? opt_.height : (settings_.window_height >= 480 ? settings_.window_height : 1000);
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

    // Every shader builds before the first frame, or the window does not
    // open: maps drawn without one would be blank under a status bar saying Ready.
    gpu_ = std::make_unique<ui::GlCache>();
    if (!gpu_->error().empty()) throw vit::Error(gpu_->error());
    gfx::MatrixRenderer{};  // the Questions tab's matrix builds its program when first shown: checked now
    view_ = std::make_unique<ui::MainView>();
    experiments_ = std::make_unique<session::ExperimentRunner>([] { glfwPostEmptyEvent(); });
    downloader_ = std::make_unique<session::ModelDownloader>([] { glfwPostEmptyEvent(); });
    analyses_ = std::make_unique<session::ExperimentRunner>([] { glfwPostEmptyEvent(); });
    lab_ = std::make_unique<session::LabController>([] { glfwPostEmptyEvent(); });
    if (!lesson) worker_->submit({model, startup_image(args, settings_), "", -1});
    gfx::warm_up_photo_textures();  // while the worker loads the model and the first photo
    open_tour_lesson();             // --tour whose first step starts from a lesson
    s_.work.busy = true;
}

Window::~Window() {
    lab_.reset();         // joins its training thread (a run not finished is removed)
    downloader_.reset();  // they join their threads before anything they could notify goes away
    analyses_.reset();
    experiments_.reset();
    worker_.reset();
    view_.reset();  // GL objects: the context must still exist
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
                            " (GL_MAX_TEXTURE_SIZE, GL_MAX_VIEWPORT_DIMS): give at most " + std::to_string(limit_w) +
                            "x" + std::to_string(limit_h);
    glfwDestroyWindow(win_);
    win_ = nullptr;
    glfwTerminate();
    throw vit::Error(why);
}

void Window::init_imgui() {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;          // layout is computed, nothing to remember there
    install_activity_callbacks(win_);  // before the backend, which chains to them
    ImGui_ImplGlfw_InitForOpenGL(win_, true);
    install_key_filter(win_);
    ImGui_ImplOpenGL3_Init(gfx::kGlslVersion);
    load_fonts();
}

void Window::load_fonts() {
    int ww = 0, wh = 0, fw = 0, fh = 0;
    glfwGetWindowSize(win_, &ww, &wh);
    glfwGetFramebufferSize(win_, &fw, &fh);
    const float xs = content_scale(win_);
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

// The frame's actions change the state now; its commands, and the drops
// (a folder is a model, anything else a photo), are carried out after them.
void Window::apply_all(std::vector<session::Request>& requests) {
    const bool selected = std::any_of(requests.begin(), requests.end(), [](const session::Request& r) {
        const auto* a = std::get_if<session::Action>(&r);
        return a && std::holds_alternative<session::act::SelectQuery>(*a);
    });
    session::FrameOutcome outcome = session::handle_frame(s_, requests);
    requests.clear();
    if (selected && !opt_.frame_stats.empty()) stats_.interaction.selected(s_);
    open_tour_lesson();  // a tour step just shown may start from a lesson
    for (const std::string& p : take_dropped_paths()) {
        std::error_code ec;
        if (fs::is_directory(p, ec)) outcome.commands.push_back(session::cmd::OpenModel{p});
        else outcome.commands.push_back(session::cmd::OpenImage{p});
    }
    for (const session::Command& c : outcome.commands) carry_out(c);
    if (outcome.changed || !outcome.commands.empty()) busy_frames_ = 3;
}

void Window::write_state_file() {
    if (opt_.state_file.empty()) return;
    std::string text = session::state_json(s_, drawn_);
    if (text == last_state_) return;
    try {
        vit::write_file_atomic(opt_.state_file, text + "\n");
        last_state_ = std::move(text);
    } catch (const std::exception& e) {
        s_.last_error = e.what();
    }
}

// How long the loop may wait for events before its next pass: 0 when a
// script, an animation or a change needs frames now, else a time that paces
// the frames drawn beside background work, or idles.
double Window::wait_time() {
    // A script runs frame after frame, except while it waits for background work: then the
    // window draws its progress as for a person, and leaves the cores to the work.
    const bool script_running = !script_.finished() && !(script_.waiting() && busy());
    // A change settles over a few frames (hover, popups closing); once work has started,
    // the frame that showed the change is enough and the rest come paced.
    if (busy()) busy_frames_ = std::min(busy_frames_, 1);
    if (busy() && !was_busy_) busy_since_ = Clock::now();
    was_busy_ = busy();
    continuous_ = script_running || busy_frames_ > 0;
    const double spinner_in =
        busy() ? kSpinnerDelay - std::chrono::duration<double>(Clock::now() - busy_since_).count() : 0;
    if (continuous_ && !script_running && spinner_in > 0) return spinner_in;  // done, input or time
    if (continuous_) return 0;
    if (busy()) return busy_frame_interval(s_.frame_ms);
    return 0.5;
}

// One pass of the loop once the events are in: a frame, unless nothing asks
// for one. False once the window is to close (asked, or a script failed).
bool Window::pass() {
    if (s_.quit || glfwWindowShouldClose(win_)) return false;
    busy_frames_ = std::max(0, busy_frames_ - 1);
    // Woken by the timeout with nothing new: the picture is still right.
    const bool input = take_activity();
    if (!continuous_ && !busy() && !input) return true;
    if (input) busy_frames_ = std::max(busy_frames_, 2);  // ImGui settles hover and popups over a few frames
    if (glfwGetWindowAttrib(win_, GLFW_ICONIFIED)) return true;
    draw_frame();
    if (settings_saved_on_change()) save_settings(true);
    if (!script_.error().empty()) return false;
    if (!vsync_ && script_.finished() && opt_.frame_stats.empty()) glfwSwapInterval(1), vsync_ = true;
    return !s_.quit && !glfwWindowShouldClose(win_);
}

void Window::draw_frame() {
    const auto t0 = Clock::now();
    begin_frame();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    script_.step(s_, requests_);
    gpu_->map_tally() = {};
    ui::clip_audit::begin_frame();
    drawn_ = {};
    view_->draw(ui::Frame{s_, requests_, drawn_, *gpu_, fonts_, ui_scale_, fb_scale_});
    ImGui::Render();
    drawn_.clipped_text = ui::clip_audit::findings();
    drawn_.longest_text = ui::clip_audit::longest_text();

    int fw = 0, fh = 0;
    glfwGetFramebufferSize(win_, &fw, &fh);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, fw, fh);
    ui::draw_frame_over_panel_colour();
    if (!pending_screenshot_.empty()) save_pending_screenshot(fw, fh);
    glfwSwapBuffers(win_);
    if (release_held_keys(win_)) busy_frames_ = std::max(busy_frames_, 2);

    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    stats_.ms.push_back(ms);
    stats_.beside_work.push_back(!s_.experiments.running.empty() || !s_.analyses.running.empty());
    if (!opt_.frame_stats.empty()) stats_.interaction.frame_end(s_, gpu_->map_tally(), t0);
    s_.frame_ms = s_.frames++ ? 0.9f * s_.frame_ms + 0.1f * static_cast<float>(ms) : static_cast<float>(ms);
    apply_all(requests_);
    s_.text_input = ImGui::GetIO().WantTextInput;
    write_state_file();
}

void Window::save_pending_screenshot(int fw, int fh) {
    try {
        save_window_png(pending_screenshot_, fw, fh, session::output_rules(s_, pending_screenshot_replace_));
        s_.status = "Saved screenshot " + deliver_saved(pending_screenshot_);
    } catch (const vit::OutputExists& e) {  // it appeared since the check: ask
        ask_replace(e.path, session::cmd::Screenshot{pending_screenshot_});
    } catch (const std::exception& e) {
        s_.last_error = e.what();
        script_.writer_failed(e.what());
    }
    pending_screenshot_.clear();
}

// The settings as they are now (if_changed: unless they are what was last read or written).
void Window::save_settings(bool if_changed) {
    if (settings_file_.empty()) return;
    int w = 0, h = 0;
    glfwGetWindowSize(win_, &w, &h);
    const session::Settings now = session::settings_from_state(s_, w, h);
    if (if_changed && now == settings_) return;
    try {
        session::save_settings(settings_file_, now);
        settings_written();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vitscope: warning: settings not saved: %s\n", vit::printable(e.what()).c_str());
    }
    settings_ = now;  // a failure is said once, not every frame
}

// The window has closed: frame statistics and settings saved; a failed script's error thrown.
int Window::finish() {
    int w = 0, h = 0;
    glfwGetWindowSize(win_, &w, &h);
    if (!opt_.frame_stats.empty()) stats_.write(opt_.frame_stats, w, h);
    save_settings(false);
    if (!script_.error().empty()) throw vit::Error("script: " + script_.error());
    return 0;
}

int run_window(const CliArgs& args) {
    const WindowOptions opt = parse_window_options(args);
    return run_event_loop(std::make_unique<Window>(args, opt));
}

}  // namespace app
