#include "vit/base/atomic_file.h"

#include "vit/base/output_file.h"

namespace vit {

void write_file_atomic(const std::string& path, std::string_view bytes) {
    OutputRules replace;
    replace.force = true;
    write_output(path, bytes, replace);
}

}  // namespace vit
