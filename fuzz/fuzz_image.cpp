// libFuzzer target: photo files, through vitscope_fuzz::feed_image
// (input_paths.h). Anything but a vit::Error escaping, or a sanitizer report,
// is a crash.
#include "input_paths.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        vitscope_fuzz::feed_image(data, size);
    } catch (const vit::Error&) {
    }
    return 0;
}
