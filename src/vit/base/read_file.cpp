#include "vit/base/read_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "vit/base/error.h"

namespace vit {

std::string read_whole_file(const std::string& path, uint64_t max_bytes, const std::string& what) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    // Only a missing file is "not found": a symlink loop or a forbidden folder says what it is.
    if (ec && status.type() != fs::file_type::not_found) throw Error("cannot read " + path + ": " + ec.message());
    if (!fs::exists(status)) throw Error(path + ": not found");
    if (fs::is_directory(status)) throw Error(path + ": is a directory, not " + what);
    if (!fs::is_regular_file(status)) throw Error(path + ": is not a regular file");
    const auto fail = [&path](int err) { return Error("cannot read " + path + ": " + std::strerror(err)); };

    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!file) throw fail(errno);
    // The size from the open file, so a file swapped after the check cannot slip past it.
    if (std::fseek(file.get(), 0, SEEK_END) != 0) throw fail(errno);
    const long size = std::ftell(file.get());
    if (size < 0) throw fail(errno);
    if (size == 0) throw Error(path + ": is empty");
    if (static_cast<uint64_t>(size) > max_bytes) {
        // In MiB, or KiB for limits under one MiB (a tour's 256 KiB): never "0 MiB".
        const int shift = max_bytes >= (1u << 20) ? 20 : 10;
        const char* unit = shift == 20 ? " MiB" : " KiB";
        throw Error(path + ": is " + std::to_string(size >> shift) + unit + ", over the " +
                    std::to_string(max_bytes >> shift) + unit + " limit for " + what);
    }
    std::rewind(file.get());

    std::string bytes(static_cast<size_t>(size), '\0');
    if (std::fread(bytes.data(), 1, bytes.size(), file.get()) != bytes.size())
        throw std::ferror(file.get()) ? fail(errno) : Error("cannot read " + path + ": it shrank while being read");
    return bytes;
}

}  // namespace vit
