#include "vit/base/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "vit/base/error.h"

namespace vit {

void write_file_atomic(const std::string& path, std::string_view bytes) {
    const std::string tmp = path + ".tmp";
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) throw Error(path + ": cannot write (" + std::strerror(errno) + ")");
    const bool written = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    const bool closed = std::fclose(f) == 0;
    std::error_code ec;
    if (!written || !closed) {
        std::filesystem::remove(tmp, ec);
        throw Error(path + ": write failed (disk full?)");
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::filesystem::remove(tmp, ec);
        throw Error(path + ": cannot write (" + ec.message() + ")");
    }
}

}  // namespace vit
