#include "vit/base/atomic_file.h"

#include "vit/base/output_file.h"

namespace vit {

void write_file_atomic(const std::string& path, std::string_view bytes) {
    OutputRules replace;
    replace.force = true;
    replace.wait_for_reader = false;  // a settings.json that is a FIFO must not hang the window's exit
    write_output(path, bytes, replace);
}

}  // namespace vit
