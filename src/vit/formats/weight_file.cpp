// Picks and opens a model folder's weight file; safetensors seen as a WeightFile.
#include "vit/formats/weight_file.h"

#include <algorithm>
#include <filesystem>

#include "vit/base/error.h"
#include "vit/formats/model_files.h"
#include "vit/formats/safetensors.h"
#include "vit/formats/torch_checkpoint.h"

namespace vit {
namespace {

class SafeTensorsWeights : public WeightFile {
public:
    explicit SafeTensorsWeights(const std::string& path) : st_(path) {
        for (const auto& [name, info] : st_.tensors()) shapes_[name] = info.shape;
    }
    const std::string& path() const override { return st_.path(); }
    std::string format() const override { return "safetensors"; }
    const std::map<std::string, std::vector<int64_t>>& shapes() const override { return shapes_; }
    std::vector<float> to_f32(const std::string& name) const override { return st_.to_f32(name); }

private:
    SafeTensors st_;
    std::map<std::string, std::vector<int64_t>> shapes_;
};

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

std::string weight_file_names(const std::string& separator) {
    std::string out;
    for (const char* name : kWeightFileNames) out.append(out.empty() ? "" : separator).append(name);
    return out;
}

std::string model_folder_contents() { return weight_file_names().append(", and ").append(kConfigFileName); }

bool is_weight_file_name(const std::string& name) {
    return std::find(kWeightFileNames.begin(), kWeightFileNames.end(), name) != kWeightFileNames.end();
}

std::string find_weight_file(const std::string& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    // exists(), not is_regular_file(): a FIFO or folder in its place is refused by the reader, by name.
    for (const char* name : kWeightFileNames)
        if (const std::string path = (fs::path(dir) / name).string(); fs::exists(path, ec)) return path;
    std::string others;
    for (size_t i = 1; i < kWeightFileNames.size(); ++i) others.append(i > 1 ? ", " : "").append(kWeightFileNames[i]);
    throw Error((fs::path(dir) / kWeightFileNames[0]).string() + ": not found, nor " + others +
                " (a model folder holds " + model_folder_contents() + ")");
}

std::unique_ptr<WeightFile> open_weight_file(const std::string& path) {
    // By the extension of the torch file's name (.bin), whatever the file is called.
    const std::string torch = kTorchFileName;
    if (ends_with(path, torch.substr(torch.rfind('.')))) return std::make_unique<TorchCheckpoint>(path);
    return std::make_unique<SafeTensorsWeights>(path);
}

}  // namespace vit
