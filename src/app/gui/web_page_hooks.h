// What the browser page calls in the module, and what it gets back
// (web/app/vitscope_page.js): the file pickers' paths, a saved folder as one
// .zip to download, the test hook that writes the trace on show as
// `vitscope dump` does, and the benchmark's (bench/web/compare_ort_web.mjs).
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
// The benchmark against ONNX Runtime Web (bench/web/compare_ort_web.mjs): the photo on show
// preprocessed at size px, then `runs` forward passes with the full trace, off the page's thread
// as the explorer runs them (in turns where there are no threads). Writes the input (float32 NCHW)
// and the last pass's logits (float32) into dir as input.f32 and logits.f32.
void vitscope_start_timing(int size, int runs, const char* dir);
// "" while the timing runs, then {"ms": [each pass]} or {"error": "..."}.
const char* vitscope_timing_result();
}
