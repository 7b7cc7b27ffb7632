#include "window_input.h"

#include <array>

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>

namespace app {
namespace {

// GLFW's callbacks carry no data of ours (ImGui's backend owns the window's
// user pointer), so they report through these; only the UI thread touches them.
std::vector<std::string> g_dropped;
bool g_rescale = false;
bool g_activity = true;
std::vector<int> g_pressed_this_frame;
std::vector<std::array<int, 4>> g_held_releases;   // key, scancode, action, mods

void on_key(GLFWwindow* w, int key, int scancode, int action, int mods) {
    g_activity = true;
    // Every release waits while a press is pending, so Ctrl is still down when
    // the O of Ctrl+O is seen, whatever order the keys come up in.
    if (action == GLFW_RELEASE && !g_pressed_this_frame.empty()) {
        g_held_releases.push_back({key, scancode, action, mods});
        return;
    }
    if (action == GLFW_PRESS) g_pressed_this_frame.push_back(key);
    ImGui_ImplGlfw_KeyCallback(w, key, scancode, action, mods);
}

void on_drop(GLFWwindow*, int count, const char** paths) {
    g_activity = true;
    for (int i = 0; i < count; ++i) g_dropped.emplace_back(paths[i]);
}

void on_content_scale(GLFWwindow*, float, float) { g_rescale = g_activity = true; }

// Anything else that changes what the window shows.
void on_mouse_button(GLFWwindow*, int, int, int) { g_activity = true; }
void on_scroll(GLFWwindow*, double, double) { g_activity = true; }
void on_char(GLFWwindow*, unsigned int) { g_activity = true; }
void on_focus(GLFWwindow*, int) { g_activity = true; }
void on_cursor_enter(GLFWwindow*, int) { g_activity = true; }
void on_cursor_pos(GLFWwindow*, double, double) { g_activity = true; }
void on_size(GLFWwindow*, int, int) { g_activity = true; }
void on_refresh(GLFWwindow*) { g_activity = true; }

}  // namespace

void install_activity_callbacks(GLFWwindow* window) {
    glfwSetMouseButtonCallback(window, on_mouse_button);
    glfwSetScrollCallback(window, on_scroll);
    glfwSetCharCallback(window, on_char);
    glfwSetWindowFocusCallback(window, on_focus);
    glfwSetCursorEnterCallback(window, on_cursor_enter);
    glfwSetCursorPosCallback(window, on_cursor_pos);
    glfwSetFramebufferSizeCallback(window, on_size);
    glfwSetWindowRefreshCallback(window, on_refresh);
    glfwSetDropCallback(window, on_drop);
    glfwSetWindowContentScaleCallback(window, on_content_scale);
}

void install_key_filter(GLFWwindow* window) { glfwSetKeyCallback(window, on_key); }

bool take_activity() {
    const bool a = g_activity;
    g_activity = false;
    return a;
}

bool release_held_keys(GLFWwindow* window) {
    g_pressed_this_frame.clear();
    const auto releases = std::move(g_held_releases);
    g_held_releases.clear();
    for (const auto& r : releases) ImGui_ImplGlfw_KeyCallback(window, r[0], r[1], r[2], r[3]);
    return !releases.empty();
}

std::vector<std::string> take_dropped_paths() {
    std::vector<std::string> d = std::move(g_dropped);
    g_dropped.clear();
    return d;
}

bool take_rescale() {
    const bool r = g_rescale;
    g_rescale = false;
    return r;
}

}  // namespace app
