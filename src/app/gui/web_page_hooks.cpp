#include "app/gui/web_page_hooks.h"

#include <emscripten/emscripten.h>
#include <zip.h>

#include <cstdio>
#include <filesystem>
#include <memory>

#include "app/dump_arrays.h"
#include "app/gui/window_input.h"
#include "session/state/app_state.h"
#include "vit/base/atomic_file.h"
#include "vit/base/error.h"

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
