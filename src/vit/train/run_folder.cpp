#include "vit/train/run_folder.h"

#include <cstdio>
#include <filesystem>
#include <stb/stb_image_write.h>

#include "vit/base/error.h"
#include "vit/base/output_file.h"

namespace vit::train {

std::string step_folder_name(int step) {
    char name[32];
    std::snprintf(name, sizeof name, "step_%06d", step);
    return name;
}

std::string log_csv(const std::vector<LogRow>& rows) {
    std::string out = "step,loss,accuracy,train_loss,checkpoint\n";
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
    if (!stbi_write_png_to_func(append, &bytes, side, side, 3, rgb.data(), side * 3)) throw Error("could not encode a PNG");
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
