// libFuzzer target: model.safetensors, through vitscope_fuzz::feed_safetensors
// (input_paths.h). Anything but a vit::Error escaping, or a sanitizer report,
// is a crash. Inputs are written under the process's own folder in /dev/shm.
#include "input_paths.h"
#include "scratch_dir.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        vitscope_fuzz::feed_safetensors(data, size, vitscope_fuzz::scratch_dir());
    } catch (const vit::Error&) {
    }
    return 0;
}
