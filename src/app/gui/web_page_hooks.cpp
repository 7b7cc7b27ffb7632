#include "app/gui/web_page_hooks.h"

#include <emscripten/emscripten.h>
#include <zip.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>

#include "app/dump_arrays.h"
#include "app/gui/window_input.h"
#include "session/base/job_thread.h"
#include "session/state/app_state.h"
#include "vit/base/atomic_file.h"
#include "vit/base/error.h"
#include "vit/forward/forward.h"

namespace app {
namespace {

const session::AppState* g_state = nullptr;

}  // namespace

void set_page_state(const session::AppState* state) { g_state = state; }

std::string zipped_folder(const std::string& folder) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(folder).lexically_normal();
    const std::string out = (dir.parent_path() / (dir.filename().string() + ".zip")).string();
    std::filesystem::remove(out);
    int error = 0;
    std::unique_ptr<zip_t, void (*)(zip_t*)> archive(zip_open(out.c_str(), ZIP_CREATE | ZIP_EXCL, &error),
                                                     [](zip_t* z) { zip_discard(z); });
    if (!archive) throw vit::Error(out + ": cannot make the zip (libzip error " + std::to_string(error) + ")");
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
        if (!entry.is_regular_file()) continue;
        const std::string name = (dir.filename() / fs::relative(entry.path(), dir)).generic_string();
        zip_source_t* source = zip_source_file(archive.get(), entry.path().c_str(), 0, -1);
        if (!source || zip_file_add(archive.get(), name.c_str(), source, ZIP_FL_ENC_UTF_8) < 0) {
            if (source) zip_source_free(source);
            throw vit::Error(out + ": cannot add " + name + ": " + zip_strerror(archive.get()));
        }
    }
    if (zip_close(archive.get()) != 0) throw vit::Error(out + ": " + zip_strerror(archive.get()));
    archive.release();
    return out;
}

}  // namespace app

extern "C" {

EMSCRIPTEN_KEEPALIVE void vitscope_open_path(const char* path) { app::drop_path(path); }

EMSCRIPTEN_KEEPALIVE int vitscope_dump_trace(const char* dir) {
    try {
        if (!app::g_state || !app::g_state->loaded.ready()) throw vit::Error("no trace on show yet");
        const session::Loaded& l = app::g_state->loaded;
        const app::Pipeline p{*l.model, *l.image, *l.input, *l.trace};
        std::filesystem::create_directories(dir);
        for (const std::string& name : app::dump_array_names("", false)) {
            const app::DumpArray a = app::make_dump_array(name, p, nullptr);
            vit::write_file_atomic((std::filesystem::path(dir) / (name + ".npy")).string(),
                                   app::encode_dump_array(a, false));
        }
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vitscope: error: dump: %s\n", e.what());
        return 2;
    }
}

}  // extern "C"

namespace app {
namespace {

// One timing asked for by the benchmark page, run as the explorer runs its passes: off the
// page's thread (a JobThread: the page's thread does not sleep while its workers compute).
struct Timing {
    std::shared_ptr<const vit::Model> model;
    std::shared_ptr<const vit::Image> image;
    int size = 0, runs = 0;
    std::string dir;
};
std::mutex g_timing_mutex;
std::optional<Timing> g_timing;  // asked for, not yet taken
std::string g_timing_json;       // the last one's result; empty while one runs

// A float array as raw little-endian bytes (what the benchmark page feeds ONNX Runtime).
void write_floats(const std::string& path, const float* data, size_t count) {
    vit::write_file_atomic(path, std::string(reinterpret_cast<const char*>(data), count * sizeof(float)));
}

std::string time_forward(const Timing& t) {
    try {
        const vit::Input input = vit::preprocess(*t.image, t.model->config.pre, t.size);
        std::filesystem::create_directories(t.dir);
        write_floats(t.dir + "/input.f32", input.chw.data(), input.chw.size());
        std::string json = "{\"ms\": [";
        vit::Trace trace;
        for (int i = 0; i < t.runs; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            trace = vit::forward(*t.model, input, {}, std::move(trace));
            const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            json += (i ? ", " : "") + std::to_string(ms);
        }
        write_floats(t.dir + "/logits.f32", trace.logits.data(), trace.logits.size());
        return json + "]}";
    } catch (const std::exception& e) {
        std::string why = e.what();
        std::replace(why.begin(), why.end(), '"', '\'');
        return "{\"error\": \"" + why + "\"}";
    }
}

session::JobThread& timing_jobs() {
    static session::JobThread jobs([] {
        std::optional<Timing> t;
        {
            std::lock_guard lock(g_timing_mutex);
            t = std::move(g_timing);
            g_timing.reset();
        }
        if (!t) return;
        std::string json = time_forward(*t);
        std::lock_guard lock(g_timing_mutex);
        g_timing_json = std::move(json);
    });
    return jobs;
}

}  // namespace
}  // namespace app

extern "C" {

EMSCRIPTEN_KEEPALIVE void vitscope_start_timing(int size, int runs, const char* dir) {
    std::lock_guard lock(app::g_timing_mutex);
    app::g_timing_json.clear();
    if (!app::g_state || !app::g_state->loaded.ready()) {
        app::g_timing_json = "{\"error\": \"no photo on show yet\"}";
        return;
    }
    app::g_timing = app::Timing{app::g_state->loaded.model, app::g_state->loaded.image, size, runs, dir};
    app::timing_jobs().wake();
}

EMSCRIPTEN_KEEPALIVE const char* vitscope_timing_result() {
    static std::string result;
    std::lock_guard lock(app::g_timing_mutex);
    result = app::g_timing_json;
    return result.c_str();
}

}  // extern "C"
