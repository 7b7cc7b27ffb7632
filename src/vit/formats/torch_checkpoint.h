// pytorch_model.bin: PyTorch's zip checkpoint format (torch.save since 1.6).
// The archive (read with libzip) holds <prefix>/data.pkl, the pickled state
// dict; <prefix>/data/<key>, each storage's raw bytes (stored uncompressed);
// <prefix>/version (or .data/version); and, from torch 2.1, <prefix>/byteorder.
// data.pkl is read by the restricted interpreter of torch_pickle.h, which never
// runs code. Everything is checked on open (entries present, sizes matching,
// every tensor inside its storage); values are read when converted.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "vit/formats/torch_pickle.h"
#include "vit/formats/weight_file.h"

typedef struct zip zip_t;

namespace vit {

class TorchCheckpoint : public WeightFile {
public:
    explicit TorchCheckpoint(const std::string& path);  // throws vit::Error
    ~TorchCheckpoint() override;
    TorchCheckpoint(const TorchCheckpoint&) = delete;
    TorchCheckpoint& operator=(const TorchCheckpoint&) = delete;

    const std::string& path() const override { return path_; }
    std::string format() const override;
    const std::map<std::string, std::vector<int64_t>>& shapes() const override { return shapes_; }
    // Honours strides, the storage offset and byte order; F32, F16, BF16 and
    // F64 (rounded to f32). Not thread-safe: reads through one libzip handle.
    std::vector<float> to_f32(const std::string& name) const override;

    const TorchStateDict& state_dict() const { return sd_; }

private:
    [[noreturn]] void fail(const std::string& what) const;
    void open_archive();
    int64_t locate(const std::string& name) const;
    std::string entry_name(uint64_t index) const;
    uint64_t stored_size(uint64_t index) const;
    void read(uint64_t index, uint64_t offset, uint64_t length, uint8_t* dst) const;
    std::string read_record(uint64_t index, uint64_t limit) const;

    std::string path_;
    zip_t* zip_ = nullptr;
    std::string prefix_;  // the archive's top folder, with its '/'
    uint64_t version_ = 0;
    bool big_endian_ = false;
    TorchStateDict sd_;
    std::vector<uint64_t> storage_entry_;  // zip index of each sd_.storages[i]
    std::map<std::string, std::vector<int64_t>> shapes_;
};

}  // namespace vit
