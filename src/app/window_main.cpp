// app::run_window: the explorer window. GLFW + Dear ImGui on OpenGL 3.3; the
// model runs on the ModelWorker's thread; the AppState changes only through
// the actions the panels, shortcuts, drops and the script emit, applied once
// per frame after drawing.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <epoxy/gl.h>
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <nlohmann/json.hpp>

#include "app_state.h"
#include "commands.h"
#include "model_worker.h"
#include "settings.h"
#include "ui/fonts.h"
#include "ui/gpu.h"
#include "ui/main_view.h"
#include "ui/theme.h"
#include "vit/atomic_file.h"
#include "vit/error.h"
#include "window_export.h"
#include "window_script.h"

namespace app {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr float kFontSize = 15.f;

// GLFW callbacks carry no user data we could use without touching ImGui's
// backend, so they report through these, read once per frame.
std::vector<std::string> g_dropped;
bool g_rescale = false;
std::string g_glfw_error;

// ImGui 1.86 reads keys as up/down states once per frame, so a press and
// release within one frame (fast typists, xdotool, a loaded machine) would
// be lost. Releases of keys pressed since the last frame wait for the next.
std::vector<int> g_pressed_this_frame;
std::vector<std::array<int, 4>> g_deferred_releases;   // key, scancode, action, mods

void on_key(GLFWwindow* w, int key, int scancode, int action, int mods) {
    // Later releases wait too, so Ctrl is still down when the E of Ctrl+E is seen.
    const bool pressed_now =
        std::find(g_pressed_this_frame.begin(), g_pressed_this_frame.end(), key) != g_pressed_this_frame.end();
    if (action == GLFW_RELEASE && (pressed_now || !g_deferred_releases.empty())) {
        g_deferred_releases.push_back({key, scancode, action, mods});
        return;
    }
    if (action == GLFW_PRESS) g_pressed_this_frame.push_back(key);
    ImGui_ImplGlfw_KeyCallback(w, key, scancode, action, mods);
}

// After a frame has seen its presses: deliver the held-back releases.
void release_deferred_keys(GLFWwindow* w) {
    g_pressed_this_frame.clear();
    const auto releases = std::move(g_deferred_releases);
    g_deferred_releases.clear();
    for (const auto& r : releases) ImGui_ImplGlfw_KeyCallback(w, r[0], r[1], r[2], r[3]);
}

void on_drop(GLFWwindow*, int count, const char** paths) {
    for (int i = 0; i < count; ++i) g_dropped.emplace_back(paths[i]);
}
void on_content_scale(GLFWwindow*, float, float) { g_rescale = true; }
void on_glfw_error(int, const char* text) { g_glfw_error = text ? text : "unknown GLFW error"; }

struct Options {
    int width = 0, height = 0;        // 0: remembered or default
    std::string state_file, frame_stats;
    bool use_settings = true;
    float ui_scale = 0;               // 0: from the monitor's content scale
};

Options parse_options(const CliArgs& args) {
    Options o;
    if (args.has("--window-size")) {
        const std::string v = args.get("--window-size");
        int w = 0, h = 0;
        char tail = 0;
        if (std::sscanf(v.c_str(), "%dx%d%c", &w, &h, &tail) != 2 || w < 320 || h < 240 || w > 16384 || h > 16384)
            throw vit::Error("--window-size expects WxH (e.g. 1920x1080, at least 320x240), got '" + v + "'");
        o.width = w;
        o.height = h;
    }
    o.state_file = args.get("--state-file");
    o.frame_stats = args.get("--frame-stats");
    o.use_settings = !args.has("--no-settings");
    if (args.has("--ui-scale")) {
        o.ui_scale = std::strtof(args.get("--ui-scale").c_str(), nullptr);
        if (!(o.ui_scale >= 0.5f && o.ui_scale <= 4.f)) throw vit::Error("--ui-scale expects a number from 0.5 to 4");
    }
    return o;
}

bool exists(const std::string& p) {
    std::error_code ec;
    return !p.empty() && fs::exists(p, ec);
}

// --model, $VITSCOPE_MODEL, the remembered model, the project's models/, then
// the shared copy beside the checkout.
std::string startup_model(const CliArgs& args, const Settings& remembered) {
    const char* env = std::getenv("VITSCOPE_MODEL");
    if (args.has("--model") || (env && *env)) return resolve_model_dir(args);
    if (exists(remembered.model_dir)) return remembered.model_dir;
    const std::string project = resolve_model_dir(args);
    if (exists(project)) return project;
    const std::string shared = (fs::path(VITSCOPE_SOURCE_DIR) / ".." / "shared" / "models" / kDefaultModelName).string();
    return exists(shared) ? fs::path(shared).lexically_normal().string() : project;
}

std::string startup_image(const CliArgs& args, const Settings& remembered) {
    if (!args.positional.empty()) return args.positional.front();
    if (exists(remembered.image_path)) return remembered.image_path;
    return (fs::path(VITSCOPE_SOURCE_DIR) / "assets" / "dog.jpg").string();
}

struct FrameStats {
    std::vector<double> ms;
    void write(const std::string& path, int w, int h) const {
        // The first frames build fonts and shaders; they say nothing about steady use.
        std::vector<double> v(ms.begin() + std::min<size_t>(ms.size(), 10), ms.end());
        nlohmann::json j;
        j["frames"] = v.size();
        j["window"] = {w, h};
        if (!v.empty()) {
            double sum = 0;
            for (double x : v) sum += x;
            std::sort(v.begin(), v.end());
            j["mean_ms"] = sum / v.size();
            j["p95_ms"] = v[std::min(v.size() - 1, static_cast<size_t>(0.95 * v.size()))];
            j["max_ms"] = v.back();
        }
        vit::write_file_atomic(path, j.dump(2) + "\n");
    }
};

class Window {
public:
    Window(const CliArgs& args, const Options& opt);
    ~Window();
    int run();

private:
    void init_imgui();
    void load_fonts();
    void begin_frame();
    void handle(const Action& a);
    void apply_all(std::vector<Action>& actions);
    void write_state_file();
    void update_title();

    Options opt_;
    Settings settings_;
    std::string settings_file_;
    GLFWwindow* win_ = nullptr;
    AppState s_;
    ModelWorker* worker_ = nullptr;   // created after the window, destroyed before it
    ui::Gpu* gpu_ = nullptr;
    ui::MainView* view_ = nullptr;
    ui::Fonts fonts_;
    float ui_scale_ = 1, fb_scale_ = 1;
    ScriptRunner script_;
    std::string pending_screenshot_;
    std::string last_state_;
    int last_title_generation_ = -1;
    int busy_frames_ = 3;             // frames still to draw before waiting for events
    FrameStats stats_;
};

Window::Window(const CliArgs& args, const Options& opt) : opt_(opt), script_(script_from_cli(args)) {
    if (opt_.use_settings) {
        settings_file_ = settings_path();
        std::string warning;
        if (!settings_file_.empty()) settings_ = load_settings(settings_file_, warning);
        if (!warning.empty()) s_.status = warning;
    }
    s_.style = settings_.style;
    s_.temperature = settings_.temperature;
    s_.export_dir = exists(settings_.export_dir) ? settings_.export_dir : ".";
    s_.browser.dir = settings_.browse_dir;
    s_.photos_dir = (fs::path(VITSCOPE_SOURCE_DIR) / "assets").string();
    const std::string model = startup_model(args, settings_);
    s_.models_dir = fs::path(model).parent_path().string();

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
    glfwMakeContextCurrent(win_);
    // Scripted runs measure and finish as fast as they can; people get vsync.
    glfwSwapInterval(script_.finished() && opt_.frame_stats.empty() ? 1 : 0);
    glfwSetDropCallback(win_, on_drop);
    glfwSetWindowContentScaleCallback(win_, on_content_scale);
    init_imgui();

    gpu_ = new ui::Gpu();
    if (!gpu_->error().empty()) s_.last_error = gpu_->error();
    view_ = new ui::MainView();
    worker_ = new ModelWorker([] { glfwPostEmptyEvent(); });
    s_.requested_model = model;
    s_.requested_image = startup_image(args, settings_);
    worker_->submit({model, s_.requested_image});
    s_.work.busy = true;
}

Window::~Window() {
    delete worker_;   // joins the thread before anything it could notify goes away
    delete view_;     // GL objects: the context must still exist
    delete gpu_;
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(win_);
    glfwTerminate();
}

void Window::init_imgui() {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;   // layout is computed, nothing to remember there
    ImGui_ImplGlfw_InitForOpenGL(win_, true);
    glfwSetKeyCallback(win_, on_key);   // in front of the backend's; it restores its own on shutdown
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
    std::string warning;
    fonts_ = ui::load_fonts(kFontSize * ui_scale_, fb_scale_, warning);
    if (!warning.empty()) s_.status = warning;
    ImGui::GetStyle() = ImGuiStyle();
    ui::apply_theme(ui_scale_);
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
    const WorkProgress progress = worker_->progress();
    if (auto r = worker_->poll()) {
        if (r->changed) adopt(s_, std::move(r->loaded));
        s_.last_error = r->error;
        if (r->error.empty()) s_.status = "Ready";
        busy_frames_ = 3;
    }
    s_.work = progress;
    update_title();
    if (g_rescale) {
        g_rescale = false;
        load_fonts();
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        ImGui_ImplOpenGL3_CreateFontsTexture();
    }
    gpu_->sync(s_);
}

void Window::handle(const Action& a) {
    if (apply(s_, a)) return;
    try {
        if (auto* x = std::get_if<act::OpenImage>(&a)) {
            worker_->submit({"", x->path});
            s_.requested_image = x->path;
            s_.work.busy = true;
        } else if (auto* x = std::get_if<act::OpenModel>(&a)) {
            worker_->submit({x->dir, ""});
            s_.requested_model = x->dir;
            s_.work.busy = true;
        } else if (auto* x = std::get_if<act::Screenshot>(&a)) {
            pending_screenshot_ = x->path.empty() ? unique_path(s_.export_dir, selection_slug(s_) + "_window", ".png") : x->path;
        } else if (auto* x = std::get_if<act::ExportFigure>(&a)) {
            const std::string path = x->path.empty() ? unique_path(s_.export_dir, selection_slug(s_), ".png") : x->path;
            save_figure_png(s_, path);
            s_.status = "Saved figure " + path;
        } else if (std::holds_alternative<act::Quit>(a)) {
            s_.quit = true;
        }
    } catch (const std::exception& e) {
        s_.last_error = e.what();
    }
}

void Window::apply_all(std::vector<Action>& actions) {
    // Hover lasts while someone reports it: no report this frame, nothing hovered.
    bool hover_reported = false, changed = false;
    for (const Action& a : actions) {
        if (auto* h = std::get_if<act::HoverKey>(&a)) {
            hover_reported = true;
            if (h->token == s_.sel.hovered_key) continue;
        }
        handle(a);
        changed = true;
    }
    if (!hover_reported && s_.sel.hovered_key >= 0) {
        handle(act::HoverKey{-1});
        changed = true;
    }
    // Drops: a folder with config.json is a model, anything else a photo.
    for (const std::string& p : g_dropped) {
        std::error_code ec;
        if (fs::is_directory(p, ec)) handle(act::OpenModel{p});
        else handle(act::OpenImage{p});
        changed = true;
    }
    g_dropped.clear();
    actions.clear();
    if (changed) busy_frames_ = 3;
}

void Window::write_state_file() {
    if (opt_.state_file.empty()) return;
    std::string text = state_json(s_);
    if (text == last_state_) return;
    try {
        vit::write_file_atomic(opt_.state_file, text + "\n");
        last_state_ = std::move(text);
    } catch (const std::exception& e) {
        s_.last_error = e.what();
    }
}

int Window::run() {
    std::vector<Action> actions;
    while (!s_.quit && !glfwWindowShouldClose(win_)) {
        // Sleep until something happens, unless a script, an animation or a change needs frames.
        const bool continuous = !script_.finished() || !opt_.frame_stats.empty() || busy_frames_ > 0;
        if (continuous) glfwPollEvents();
        else if (s_.work.busy) glfwWaitEventsTimeout(1.0 / 30);   // the spinner turns
        else glfwWaitEventsTimeout(0.5);
        busy_frames_ = std::max(0, busy_frames_ - 1);
        if (glfwGetWindowAttrib(win_, GLFW_ICONIFIED)) continue;

        const auto t0 = Clock::now();
        begin_frame();
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        script_.step(s_, actions);
        view_->draw(ui::Frame{s_, actions, *gpu_, fonts_, ui_scale_, fb_scale_});
        ImGui::Render();

        int fw = 0, fh = 0;
        glfwGetFramebufferSize(win_, &fw, &fh);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(0, 0, fw, fh);
        glClearColor(0.08f, 0.085f, 0.095f, 1.f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        if (!pending_screenshot_.empty()) {
            try {
                save_window_png(pending_screenshot_, fw, fh);
                s_.status = "Saved screenshot " + pending_screenshot_;
            } catch (const std::exception& e) {
                s_.last_error = e.what();
            }
            pending_screenshot_.clear();
        }
        glfwSwapBuffers(win_);
        if (!g_deferred_releases.empty()) busy_frames_ = std::max(busy_frames_, 2);
        release_deferred_keys(win_);

        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        stats_.ms.push_back(ms);
        s_.frame_ms = s_.frames++ ? 0.9f * s_.frame_ms + 0.1f * static_cast<float>(ms) : static_cast<float>(ms);
        apply_all(actions);
        write_state_file();
        if (!script_.error().empty()) break;
    }

    int w = 0, h = 0;
    glfwGetWindowSize(win_, &w, &h);
    if (!opt_.frame_stats.empty()) stats_.write(opt_.frame_stats, w, h);
    if (!settings_file_.empty()) {
        try {
            save_settings(settings_file_, settings_from_state(s_, w, h));
        } catch (const std::exception& e) {
            std::fprintf(stderr, "vitscope: warning: settings not saved: %s\n", e.what());
        }
    }
    if (!script_.error().empty()) throw vit::Error("script: " + script_.error());
    return 0;
}

}  // namespace

int run_window(const CliArgs& args) {
    const Options opt = parse_options(args);
    Window window(args, opt);
    return window.run();
}

}  // namespace app
