#include "app/gui/window_input.h"
#include "app/gui/window_platform.h"

#include <deque>

#include <imgui.h>

#include "gfx/gl.h"  // before GLFW: in a unity batch, window_main.cpp may follow and needs it first
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>

namespace app {
namespace {

// GLFW's callbacks carry no data of ours (ImGui's backend owns the window's
// user pointer), so they report through these; only the UI thread touches them.
std::vector<std::string> g_dropped;
bool g_rescale = false;
bool g_activity = true;
// Key and text events on their way to ImGui, in the order they came.
struct InputEvent {
    bool is_char;
    int key, scancode, action, mods;  // key events
    unsigned int c;                   // characters
    bool is_press() const { return !is_char && action == GLFW_PRESS; }
};
std::deque<InputEvent> g_held;
bool g_pressed_this_frame = false;

// ImGui 1.86 knows a modifier as down only from its key's press, so Ctrl
// held before the window had the keyboard (pressed in another window, or
// while this one opened) made Ctrl+Q a plain Q. A key's event says which
// modifiers are down: where ImGui disagrees, it gets the modifier's press or
// release first. (Not for the modifier keys' own events: X11 reports the
// state before the event.)
void match_modifiers(GLFWwindow* w, const InputEvent& e) {
    struct Modifier {
        int mod, left, right;
    };
    static constexpr Modifier kModifiers[] = {{GLFW_MOD_CONTROL, GLFW_KEY_LEFT_CONTROL, GLFW_KEY_RIGHT_CONTROL},
                                              {GLFW_MOD_SHIFT, GLFW_KEY_LEFT_SHIFT, GLFW_KEY_RIGHT_SHIFT},
                                              {GLFW_MOD_ALT, GLFW_KEY_LEFT_ALT, GLFW_KEY_RIGHT_ALT},
                                              {GLFW_MOD_SUPER, GLFW_KEY_LEFT_SUPER, GLFW_KEY_RIGHT_SUPER}};
    for (const Modifier& m : kModifiers)
        if (e.key == m.left || e.key == m.right) return;
    const bool* down = ImGui::GetIO().KeysDown;
    for (const Modifier& m : kModifiers) {
        const bool in_event = (e.mods & m.mod) != 0;
        if (in_event && !down[m.left] && !down[m.right]) ImGui_ImplGlfw_KeyCallback(w, m.left, 0, GLFW_PRESS, e.mods);
        else if (!in_event && (down[m.left] || down[m.right]))
            for (int key : {m.left, m.right}) ImGui_ImplGlfw_KeyCallback(w, key, 0, GLFW_RELEASE, e.mods);
    }
}

void deliver(GLFWwindow* w, const InputEvent& e) {
    if (e.is_char) {
        ImGui_ImplGlfw_CharCallback(w, e.c);
    } else {
        match_modifiers(w, e);
        ImGui_ImplGlfw_KeyCallback(w, e.key, e.scancode, e.action, e.mods);
        if (e.is_press()) g_pressed_this_frame = true;
    }
}

// After a press, releases and text wait for the next frame (so Ctrl is still
// down when the O of Ctrl+O is seen, and Ctrl+A has selected a field's text
// before the typing replaces it); later presses wait behind them, in order.
void arrive(GLFWwindow* w, const InputEvent& e) {
    g_activity = true;
    if (!g_held.empty() || (g_pressed_this_frame && !e.is_press())) g_held.push_back(e);
    else deliver(w, e);
}

void on_key(GLFWwindow* w, int key, int scancode, int action, int mods) {
    arrive(w, {false, key, scancode, action, mods, 0});
}

void on_char_filter(GLFWwindow* w, unsigned int c) { arrive(w, {true, 0, 0, 0, 0, c}); }

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
    watch_content_scale(window, on_content_scale);
}

void install_key_filter(GLFWwindow* window) {
    glfwSetKeyCallback(window, on_key);
    glfwSetCharCallback(window, on_char_filter);
}

bool take_activity() {
    const bool a = g_activity;
    g_activity = false;
    return a;
}

bool has_activity() { return g_activity; }

bool release_held_keys(GLFWwindow* window) {
    const bool any = !g_held.empty();
    g_pressed_this_frame = false;
    while (!g_held.empty() && !(g_pressed_this_frame && !g_held.front().is_press())) {
        deliver(window, g_held.front());
        g_held.pop_front();
    }
    return any;
}

void drop_path(const std::string& path) {
    g_dropped.push_back(path);
    g_activity = true;
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
