// Read-only, memory-mapped safetensors file (https://huggingface.co/docs/safetensors).
// Layout: 8-byte little-endian header length, JSON header, raw tensor bytes.
// Everything in the header is validated on open (length, JSON, dtypes, shapes,
// offsets inside the file and not overlapping), so later reads cannot go out of bounds.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace vit {

enum class DType { F32, F16, BF16 };

struct TensorInfo {
    DType dtype;
    std::vector<int64_t> shape;
    const uint8_t* data = nullptr;  // points into the mapping
    size_t nbytes = 0;
    int64_t numel() const;
};

class SafeTensors {
public:
    explicit SafeTensors(const std::string& path);  // throws vit::Error
    ~SafeTensors();
    SafeTensors(const SafeTensors&) = delete;
    SafeTensors& operator=(const SafeTensors&) = delete;

    bool has(const std::string& name) const { return tensors_.count(name) != 0; }
    const TensorInfo& info(const std::string& name) const;  // throws if missing
    // The tensor converted to f32, row-major; throws if missing or if its
    // element count differs from the product of expected_shape (when given).
    std::vector<float> to_f32(const std::string& name, const std::vector<int64_t>& expected_shape = {}) const;
    const std::map<std::string, TensorInfo>& tensors() const { return tensors_; }
    const std::map<std::string, std::string>& metadata() const { return metadata_; }
    const std::string& path() const { return path_; }

private:
    std::string path_;
    void* map_ = nullptr;
    size_t map_size_ = 0;
    std::map<std::string, TensorInfo> tensors_;
    std::map<std::string, std::string> metadata_;
};

// Writes a safetensors file (tests and tools make synthetic checkpoints with it).
// Written to path + ".tmp" then renamed, so a failure leaves no partial file.
struct TensorToWrite {
    std::string name;
    DType dtype;
    std::vector<int64_t> shape;
    std::vector<float> values;  // converted to dtype on write
};
void write_safetensors(const std::string& path, const std::vector<TensorToWrite>& tensors);

float f16_to_f32(uint16_t h);
float bf16_to_f32(uint16_t b);
uint16_t f32_to_f16(float f);
uint16_t f32_to_bf16(float f);

}  // namespace vit
