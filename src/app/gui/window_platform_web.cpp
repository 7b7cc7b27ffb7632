// The browser's window: emscripten's GLFW on the page's canvas. The page
// owns the event loop: each animation frame the window takes one pass (the
// browser delivered the events before it), after the background jobs' turns
// in a build without threads (session::JobThread); a file an export saved in the
// module's file system is handed to the page (web/app/vitscope_page.js) as
// a download.
#include <GLFW/glfw3.h>
#include <emscripten/emscripten.h>
#include <emscripten/html5.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

#include "app/gui/web_page_hooks.h"
#include "app/gui/window.h"
#include "app/gui/window_input.h"
#include "app/gui/window_platform.h"
#include "session/base/job_thread.h"

namespace app {
namespace {

Window* g_window = nullptr;  // lives as long as the page
std::chrono::steady_clock::time_point g_next_pass;
// The page's device pixel ratio (a Retina screen, the browser's zoom) as last told to the window.
double g_pixel_ratio = 1;
GLFWwindow* g_scaled_window = nullptr;
void (*g_scale_changed)(GLFWwindow*, float, float) = nullptr;

// Frames beside background work come paced, as the desktop's waits pace
// them: a pass before its time only if input arrived.
void one_pass(void*) {
    const auto now = std::chrono::steady_clock::now();
    const double wait = g_window->wait_time();
    if (const double ratio = emscripten_get_device_pixel_ratio(); ratio != g_pixel_ratio && g_scale_changed) {
        g_pixel_ratio = ratio;
        g_scale_changed(g_scaled_window, static_cast<float>(ratio), static_cast<float>(ratio));
    }
    if (wait > 0 && now < g_next_pass && !has_activity()) return;
    // The frame before showed what is under way; the job runs now, the next frame shows its result.
    session::JobThread::run_turns();
    g_next_pass =
        now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(wait));
    if (!g_window->pass()) emscripten_cancel_main_loop();
}

}  // namespace

int run_event_loop(std::unique_ptr<Window> window) {
    g_window = window.release();
    set_page_state(&g_window->state());
    emscripten_set_main_loop_arg(one_pass, nullptr, 0, true);  // does not return
    return 0;
}

// WebGL 2 (OpenGL ES 3.0): emscripten's GLFW makes it for a major version of 3.
void set_window_hints(bool) { glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3); }

// The page sizes the canvas in device pixels (vitscope_page.js): the window
// scales its text and panels by the pixel ratio, and stays sharp on Retina screens.
float content_scale(GLFWwindow*) {
    g_pixel_ratio = emscripten_get_device_pixel_ratio();
    return static_cast<float>(g_pixel_ratio);
}

void watch_content_scale(GLFWwindow* window, void (*changed)(GLFWwindow*, float, float)) {
    g_scaled_window = window;
    g_scale_changed = changed;
}

bool settings_saved_on_change() { return true; }

void settings_written() {
    EM_ASM({
        if (Module.vitscopeSaveSettings) Module.vitscopeSaveSettings();
    });
}

void offer_download(const std::string& path) {
    std::error_code ec;
    std::string file = path;
    try {
        if (std::filesystem::is_directory(path, ec)) file = zipped_folder(path);
    } catch (const std::exception& e) {  // the folder is saved; only its download failed: said on the page
        std::fprintf(stderr, "vitscope: error: %s\n", e.what());
        return;
    }
    // clang-format off
    EM_ASM({ if (Module.vitscopeOfferDownload) Module.vitscopeOfferDownload(UTF8ToString($0)); }, file.c_str());
    // clang-format on
}

}  // namespace app
