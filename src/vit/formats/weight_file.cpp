// Picks and opens a model folder's weight file; safetensors seen as a WeightFile.
#include "vit/formats/weight_file.h"

#include <filesystem>

#include "vit/base/error.h"
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

std::string find_weight_file(const std::string& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const std::string safetensors = (fs::path(dir) / "model.safetensors").string();
    // exists(), not is_regular_file(): a FIFO or folder in its place is refused by the reader, by name.
    if (fs::exists(safetensors, ec)) return safetensors;
    const std::string bin = (fs::path(dir) / "pytorch_model.bin").string();
    if (fs::exists(bin, ec)) return bin;
    throw Error(safetensors + ": not found, nor pytorch_model.bin (a model folder holds model.safetensors or "
                              "pytorch_model.bin, and config.json)");
}

std::unique_ptr<WeightFile> open_weight_file(const std::string& path) {
    if (ends_with(path, ".bin")) return std::make_unique<TorchCheckpoint>(path);
    return std::make_unique<SafeTensorsWeights>(path);
}

}  // namespace vit
