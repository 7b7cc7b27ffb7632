// libFuzzer target: model.safetensors, through vitscope_fuzz::feed_safetensors
// (input_paths.h). Anything but a vit::Error escaping, or a sanitizer report,
// is a crash. Each fuzzing process writes its inputs under its own folder in
// /dev/shm (no disk I/O per input), removed when it exits normally.
#include <unistd.h>

#include "input_paths.h"

namespace {

const std::filesystem::path& scratch_dir() {
    static const std::filesystem::path dir = [] {
        namespace fs = std::filesystem;
        const fs::path base = fs::is_directory("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
        const fs::path d = base / ("vitscope-fuzz-" + std::to_string(::getpid()));
        fs::create_directories(d);
        std::atexit([] {
            std::error_code ec;
            std::filesystem::remove_all(scratch_dir(), ec);
        });
        return d;
    }();
    return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        vitscope_fuzz::feed_safetensors(data, size, scratch_dir());
    } catch (const vit::Error&) {
    }
    return 0;
}
