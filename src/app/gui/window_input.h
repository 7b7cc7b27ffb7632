// GLFW input the window needs beyond what ImGui's backend does: dropped
// files, content-scale changes, and key presses that must not be lost.
//
// ImGui 1.86 reads keys as up/down states once per frame, so a press and its
// release within one frame (fast typing, xdotool, a loaded machine) vanish.
// Here, after a press, the key and text events that follow wait for the next
// frame, in the order they came: each frame sees at most one step of typing.
#pragma once
#include <string>
#include <vector>

struct GLFWwindow;

namespace app {

// Call before ImGui_ImplGlfw_InitForOpenGL: callbacks that note any input
// (the backend chains to them) so an idle window draws nothing.
void install_activity_callbacks(GLFWwindow* window);
// Call after ImGui_ImplGlfw_InitForOpenGL: puts the key filter in front of the
// backend's key and character callbacks (the backend restores its own on shutdown).
void install_key_filter(GLFWwindow* window);

// Whether any input arrived since the last call.
bool take_activity();
// Whether any arrived since take_activity was last called, leaving it to be taken.
bool has_activity();

// After each frame: delivers held-back key events and text, up to the next
// press. Returns whether any were held (the next frame must then be drawn).
bool release_held_keys(GLFWwindow* window);

// Paths dropped on the window since the last call.
std::vector<std::string> take_dropped_paths();
// Opens path as a drop would (a folder is a model, a file a photo): the browser page's file pickers.
void drop_path(const std::string& path);
// Whether the monitor's content scale changed since the last call.
bool take_rescale();

}  // namespace app
