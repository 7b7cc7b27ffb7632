// What the explorer window does differently on each platform, one function
// each: the desktop's (window_platform_desktop.cpp: GLFW on X11, Wayland,
// Windows, macOS) and the browser's (window_platform_web.cpp: emscripten's
// GLFW on a canvas, the page's animation frames, downloads).
#pragma once
#include <memory>
#include <string>

struct GLFWwindow;

namespace app {

class Window;

// Runs the window until it closes and returns the exit code. In the browser
// it hands the window to the page's animation frames and never returns.
int run_event_loop(std::unique_ptr<Window> window);

// GLFW's hints for the window about to open: the OpenGL it needs, and
// whether its size is exact (--window-size) or scales with the monitor.
void set_window_hints(bool exact_size);

// How much larger than 96 dpi the window's screen shows things.
float content_scale(GLFWwindow* window);

// Calls changed when the window moves to a screen of another content scale
// (the browser's canvas keeps one).
void watch_content_scale(GLFWwindow* window, void (*changed)(GLFWwindow*, float, float));

// Whether the settings are saved whenever they change (the browser: a tab
// closes without the window's finish) or once, as the window closes.
bool settings_saved_on_change();
// The settings file was just written: the browser keeps it in its storage (IndexedDB).
void settings_written();

// In the browser, a file just saved (a folder: as one .zip) is offered as a
// download; on the desktop it stays where the user asked for it.
void offer_download(const std::string& path);

}  // namespace app
