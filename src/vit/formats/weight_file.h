// A model's weight file, whatever its format: the tensors by name with their
// shapes, and each one converted to f32. load_model reads every naming scheme
// through this, from model.safetensors or from pytorch_model.bin alike.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace vit {

class WeightFile {
public:
    virtual ~WeightFile() = default;
    virtual const std::string& path() const = 0;
    // The file format in words, for `vitscope info`.
    virtual std::string format() const = 0;
    // Every tensor's shape, by name (sorted). Known before any value is read.
    virtual const std::map<std::string, std::vector<int64_t>>& shapes() const = 0;
    // The tensor's values as f32 in row-major order. Throws vit::Error.
    virtual std::vector<float> to_f32(const std::string& name) const = 0;

    bool has(const std::string& name) const { return shapes().count(name) != 0; }
};

// The weight file of a model folder: the first of model_files.h's
// kWeightFileNames it holds. Throws vit::Error when it holds none.
std::string find_weight_file(const std::string& dir);

// Opens a weight file, by its name: *.bin is a torch.save checkpoint, anything
// else safetensors. Throws vit::Error when the file is refused.
std::unique_ptr<WeightFile> open_weight_file(const std::string& path);

}  // namespace vit
