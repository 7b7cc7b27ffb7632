#include "app/photo_list.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

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

void add_list(const std::string& list, std::vector<std::string>& out) {
    std::ifstream in(list);
    if (!in) throw vit::Error("@" + list + ": cannot read the list of photos");
    std::string line;
    size_t before = out.size();
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const size_t start = line.find_first_not_of(" \t");
        if (start == std::string::npos || line[start] == '#') continue;
        out.push_back(line);
    }
    if (out.size() == before) throw vit::Error("@" + list + ": the list names no photo");
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
