#include "app/photo_list.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>

#include "vit/base/error.h"

namespace app {
namespace {

namespace fs = std::filesystem;

void add_folder(const std::string& folder, std::vector<std::string>& out) {
    std::vector<std::string> found;
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(folder, ec))
        if (looks_like_photo(e.path().string()) && e.is_regular_file(ec)) found.push_back(e.path().string());
    if (ec) throw vit::Error(folder + ": cannot list (" + ec.message() + ")");
    if (found.empty()) throw vit::Error(folder + ": a folder without photos (.jpg, .jpeg, .png, .webp, .bmp, .gif)");
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
}

// Bounds on a list, checked while it is read, so /dev/zero, /dev/urandom or an
// endless pipe is refused at once instead of filling memory.
constexpr size_t kMaxListBytes = 16u << 20;
constexpr size_t kMaxListPhotos = 100000;
constexpr size_t kMaxLineBytes = 4096;  // PATH_MAX

std::vector<std::string> read_list(const std::string& list) {
    const std::string name = "@" + list;
    std::FILE* in = std::fopen(list.c_str(), "rb");
    if (!in) throw vit::Error(name + ": cannot read the list of photos (" + std::strerror(errno) + ")");
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> closer(in, std::fclose);
    std::vector<std::string> out;
    std::string line;
    size_t total = 0, line_number = 1;
    auto finish_line = [&] {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const size_t start = line.find_first_not_of(" \t");
        if (start != std::string::npos && line[start] != '#') {
            if (out.size() == kMaxListPhotos)
                throw vit::Error(name + ": names over " + std::to_string(kMaxListPhotos) +
                                 " photos; split it into several lists");
            out.push_back(line);
        }
        line.clear();
        ++line_number;
    };
    char buffer[65536];
    for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, in)) > 0;) {
        total += n;
        if (total > kMaxListBytes)
            throw vit::Error(name + ": over " + std::to_string(kMaxListBytes >> 20) +
                             " MiB; a list names photos, one a line");
        for (size_t i = 0; i < n; ++i) {
            const char c = buffer[i];
            if (c == '\n') {
                finish_line();
                continue;
            }
            if (c == '\0')
                throw vit::Error(name + ": line " + std::to_string(line_number) +
                                 " holds a NUL byte; a list is text, one path a line");
            if (line.size() == kMaxLineBytes)
                throw vit::Error(name + ": line " + std::to_string(line_number) + " is over " +
                                 std::to_string(kMaxLineBytes) + " bytes; a list is text, one path a line");
            line += c;
        }
    }
    if (std::ferror(in)) throw vit::Error(name + ": cannot read the list of photos (" + std::strerror(errno) + ")");
    if (!line.empty()) finish_line();
    if (out.empty()) throw vit::Error(name + ": the list names no photo");
    return out;
}

// Each list is read once per run (the output rule asks for the photos before
// the command does), so @/dev/stdin gives both the same photos.
void add_list(const std::string& list, std::vector<std::string>& out) {
    static std::map<std::string, std::vector<std::string>> read;
    auto it = read.find(list);
    if (it == read.end()) it = read.emplace(list, read_list(list)).first;
    out.insert(out.end(), it->second.begin(), it->second.end());
}

}  // namespace

bool looks_like_photo(const std::string& path) {
    std::string ext = fs::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    for (const char* known : {".jpg", ".jpeg", ".png", ".webp", ".bmp", ".gif", ".tga", ".ppm", ".pgm", ".pnm"})
        if (ext == known) return true;
    return false;
}

std::vector<std::string> photo_paths(const CliArgs& args) {
    std::vector<std::string> out;
    for (const std::string& arg : args.positional) {
        std::error_code ec;
        if (arg.size() > 1 && arg[0] == '@') add_list(arg.substr(1), out);
        else if (fs::is_directory(arg, ec)) add_folder(arg, out);
        else out.push_back(arg);  // a photo; one that cannot be read is refused when it is read
    }
    if (out.empty()) throw vit::Error("missing IMAGE");
    return out;
}

std::string prefix_lines(const std::string& rows, const std::string& field, char separator) {
    std::string out;
    size_t from = 0;
    while (from < rows.size()) {
        const size_t end = rows.find('\n', from);
        const size_t stop = end == std::string::npos ? rows.size() : end + 1;
        out += field;
        out += separator;
        out.append(rows, from, stop - from);
        from = stop;
    }
    return out;
}

}  // namespace app
