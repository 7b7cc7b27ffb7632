#include "vit/train/run_folder.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <stb/stb_image_write.h>

#include "vit/base/error.h"
#include "vit/base/output_file.h"
#include "vit/formats/model_files.h"

namespace vit::train {

std::string step_folder_name(int step) {
    char name[32];
    std::snprintf(name, sizeof name, "step_%06d", step);
    return name;
}

namespace {

constexpr const char* kLogHeader = "step,loss,accuracy,train_loss,checkpoint";

bool is_numbered(const std::string& name, const std::string& prefix, size_t digits, const std::string& suffix) {
    if (name.size() != prefix.size() + digits + suffix.size() || name.rfind(prefix, 0) != 0) return false;
    if (name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) return false;
    return std::all_of(name.begin() + static_cast<long>(prefix.size()), name.end() - static_cast<long>(suffix.size()),
                       [](char c) { return c >= '0' && c <= '9'; });
}

std::string first_line(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string line;
    std::getline(in, line);
    return line;
}

// The first entry of `folder` that `allowed` refuses (its path inside the run), "" when none.
std::string stranger_in(const std::filesystem::path& folder,
                        const std::function<bool(const std::filesystem::directory_entry&)>& allowed,
                        const std::string& shown) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(folder, ec))
        if (!allowed(entry)) return shown + entry.path().filename().string();
    return ec ? shown + " (" + ec.message() + ")" : "";
}

}  // namespace

std::string why_not_a_run(const std::string& folder) {
    namespace fs = std::filesystem;
    const std::string not_a_run = "is not a run of vitscope train";
    std::error_code ec;
    if (!fs::is_directory(fs::symlink_status(folder, ec))) return not_a_run + " (not a folder)";
    if (first_line(folder + "/log.csv") != kLogHeader) return not_a_run + " (no log.csv as train writes it)";
    if (first_line(folder + "/config").rfind("task = ", 0) != 0) return not_a_run + " (no config as train writes it)";
    const auto plain_file = [](const fs::directory_entry& e) {
        std::error_code c;
        return e.is_regular_file(c) && !e.is_symlink(c);
    };
    const auto plain_folder = [](const fs::directory_entry& e) {
        std::error_code c;
        return e.is_directory(c) && !e.is_symlink(c);
    };
    std::string stranger = stranger_in(
        folder,
        [&](const fs::directory_entry& e) {
            const std::string name = e.path().filename().string();
            if (name == "config" || name == "log.csv") return plain_file(e);
            return (name == "samples" || is_numbered(name, "step_", 6, "")) && plain_folder(e);
        },
        "");
    if (stranger.empty())
        stranger = stranger_in(
            folder + "/samples",
            [&](const fs::directory_entry& e) {
                const std::string name = e.path().filename().string();
                return plain_file(e) && (name == "samples.csv" || is_numbered(name, "sample_", 3, ".png"));
            },
            "samples/");
    for (const auto& step : fs::directory_iterator(folder, ec)) {
        if (!stranger.empty()) break;
        if (step.path().filename().string().rfind("step_", 0) != 0) continue;
        stranger = stranger_in(
            step.path(),
            [&](const fs::directory_entry& e) {
                const std::string name = e.path().filename().string();
                return plain_file(e) && (name == kConfigFileName || name == kSafetensorsFileName);
            },
            step.path().filename().string() + "/");
    }
    if (!stranger.empty()) return not_a_run + " (it holds " + stranger + ", which train does not write)";
    return "";
}

std::string log_csv(const std::vector<LogRow>& rows) {
    std::string out = std::string(kLogHeader) + "\n";
    char line[128];
    for (const LogRow& r : rows) {
        std::snprintf(line, sizeof line, "%d,%.6f,%.6f,%.6f,%s\n", r.step, r.loss, r.accuracy, r.train_loss,
                      r.fast ? "fast" : "scheduled");
        out += line;
    }
    return out;
}

std::string encode_png(const std::vector<uint8_t>& rgb, int side) {
    std::string bytes;
    auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<size_t>(size));
    };
    if (!stbi_write_png_to_func(append, &bytes, side, side, 3, rgb.data(), side * 3))
        throw Error("could not encode a PNG");
    return bytes;
}

void write_samples(const HeldOut& held_out, const std::vector<std::string>& labels, int count, int side,
                   const std::string& dir) {
    const std::string folder = dir + "/samples";
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec) throw Error(folder + ": " + ec.message());
    OutputRules rules;
    rules.force = true;
    std::string csv = "file,label\n";
    for (int i = 0; i < count && i < static_cast<int>(held_out.samples.size()); ++i) {
        char name[32];
        std::snprintf(name, sizeof name, "sample_%03d.png", i);
        write_output(folder + "/" + name, encode_png(held_out.samples[i].rgb, side), rules);
        csv += std::string(name) + "," + labels.at(held_out.samples[i].label) + "\n";
    }
    write_output(folder + "/samples.csv", csv, rules);
}

}  // namespace vit::train
