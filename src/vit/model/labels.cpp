#include "vit/model/labels.h"

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "vit/base/error.h"
#include "vit/base/install_dir.h"
#include "vit/base/read_file.h"
#include "vit/model/model.h"

namespace vit {

namespace fs = std::filesystem;

std::string shipped_labels_dir() {
    if (const char* env = std::getenv("VITSCOPE_LABELS_DIR"); env && *env) return env;
#ifdef VITSCOPE_LABELS_DIR
    return resource_dir("labels", VITSCOPE_LABELS_DIR);
#else
    return resource_dir("labels", "labels");
#endif
}

std::vector<std::string> read_label_file(const std::string& path) {
    std::istringstream in(read_whole_file(path, 64ULL << 20, "a label list"));
    std::vector<std::string> names;
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        names.push_back(line);
    }
    return names;
}

void add_shipped_labels(Model& model, const std::string& dir) {
    ModelConfig& c = model.config;
    if (c.source != "timm" || !c.labels.empty() || model.num_classes() != kImageNet1kClasses) return;
    const std::string file = (fs::path(dir) / "imagenet-1k.txt").string();
    try {
        std::vector<std::string> names = read_label_file(file);
        if (static_cast<int>(names.size()) != kImageNet1kClasses) {
            c.labels_source = "none: " + file + " holds " + std::to_string(names.size()) + " names, not 1000";
            return;
        }
        c.labels = std::move(names);
        c.labels_source = "ImageNet-1k names shipped with vitscope (" + file + "); the timm config has none";
    } catch (const Error& e) {
        c.labels_source = std::string("none: the ImageNet-1k names are missing (") + e.what() + ")";
    }
}

}  // namespace vit
