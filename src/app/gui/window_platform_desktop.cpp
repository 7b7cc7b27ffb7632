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

float content_scale(GLFWwindow* window) {
    float x = 1, y = 1;
    glfwGetWindowContentScale(window, &x, &y);
    return x;
}

void offer_download(const std::string&) {}

}  // namespace app
