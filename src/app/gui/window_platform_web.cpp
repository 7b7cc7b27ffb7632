// The browser's window: emscripten's GLFW on the page's canvas. The page
// owns the event loop: each animation frame the window takes one pass (the
// browser delivered the events before it); a file an export saved in the
// module's file system is handed to the page (web/app/vitscope_page.js) as
// a download.
#include <GLFW/glfw3.h>
#include <emscripten/emscripten.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

#include "app/gui/web_page_hooks.h"
#include "app/gui/window.h"
#include "app/gui/window_input.h"
#include "app/gui/window_platform.h"

namespace app {
namespace {

Window* g_window = nullptr;  // lives as long as the page
std::chrono::steady_clock::time_point g_next_pass;

// Frames beside background work come paced, as the desktop's waits pace
// them: a pass before its time only if input arrived.
void one_pass(void*) {
    const auto now = std::chrono::steady_clock::now();
    const double wait = g_window->wait_time();
    if (wait > 0 && now < g_next_pass && !has_activity()) return;
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

float content_scale(GLFWwindow*) { return 1.0f; }  // the canvas is drawn at CSS pixels

void watch_content_scale(GLFWwindow*, void (*)(GLFWwindow*, float, float)) {}

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
