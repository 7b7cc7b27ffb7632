// The desktop's window: GLFW sleeps until input, the workers' wake-ups or the
// time Window::wait_time allows, then the window takes one pass.
#include <GLFW/glfw3.h>

#include "app/gui/window.h"
#include "app/gui/window_platform.h"

namespace app {

int run_event_loop(std::unique_ptr<Window> window) {
    for (;;) {
        const double wait = window->wait_time();
        if (wait > 0) glfwWaitEventsTimeout(wait);
        else glfwPollEvents();
        if (!window->pass()) break;
    }
    return window->finish();
}

void set_window_hints(bool exact_size) {
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, exact_size ? GLFW_FALSE : GLFW_TRUE);
}

float content_scale(GLFWwindow* window) {
    float x = 1, y = 1;
    glfwGetWindowContentScale(window, &x, &y);
    return x;
}

void watch_content_scale(GLFWwindow* window, void (*changed)(GLFWwindow*, float, float)) {
    glfwSetWindowContentScaleCallback(window, changed);
}

bool settings_saved_on_change() { return false; }

void settings_written() {}

void offer_download(const std::string&) {}

}  // namespace app
