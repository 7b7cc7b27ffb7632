// libFuzzer target: settings.json through session::load_settings (from a
// file, as the window reads it). Nothing may throw; what it reads, saved and
// read again, must come back the same with no warning (the settings it keeps
// are ones it can write). Anything else, or a sanitizer report, is a crash.
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include "scratch_dir.h"
#include "session/dispatch/settings.h"
#include "vit/base/error.h"

namespace {

void require(bool holds) {
    if (!holds) std::abort();
}

bool same(const session::Settings& a, const session::Settings& b) {
    return a.model_dir == b.model_dir && a.image_path == b.image_path && a.browse_dir == b.browse_dir &&
           a.export_dir == b.export_dir && a.temperature == b.temperature && a.window_width == b.window_width &&
           a.window_height == b.window_height && a.tour_offered == b.tour_offered &&
           a.style.colormap == b.style.colormap && a.style.normalization == b.style.normalization &&
           a.style.opacity == b.style.opacity && a.style.fade == b.style.fade && a.style.bilinear == b.style.bilinear &&
           a.style.show_grid == b.style.show_grid;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const std::string in = (vitscope_fuzz::scratch_dir() / "settings.json").string();
    static const std::string out = (vitscope_fuzz::scratch_dir() / "again.json").string();
    {
        std::ofstream f(in, std::ios::binary | std::ios::trunc);
        f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    std::string warning;
    const session::Settings first = session::load_settings(in, warning);
    session::save_settings(out, first);
    const session::Settings second = session::load_settings(out, warning);
    require(warning.empty() && same(first, second));
    return 0;
}
