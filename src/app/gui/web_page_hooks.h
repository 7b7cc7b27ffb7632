// What the browser page calls in the module, and what it gets back
// (web/app/vitscope_page.js): the file pickers' paths, a saved folder as one
// .zip to download, and the test hook that writes the trace on show as
// `vitscope dump` does.
#pragma once
#include <string>

namespace session {
struct AppState;
}

namespace app {

// The window's state, for the hooks (set once the window exists).
void set_page_state(const session::AppState* state);

// FOLDER.zip beside the folder, holding its files under FOLDER/; returns its path. Throws vit::Error.
std::string zipped_folder(const std::string& folder);

}  // namespace app

extern "C" {
// The page's file pickers: a photo's path, or a model's folder, opened as a drop would be.
void vitscope_open_path(const char* path);
// Writes the trace on show into dir as `vitscope dump` writes its arrays (NAME.npy each); 0 on
// success, else 2 with the reason on standard error. The browser tests read it back.
int vitscope_dump_trace(const char* dir);
}
