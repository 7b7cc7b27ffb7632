// Hand-made torch.save checkpoints for tests and fuzz seeds: a writer of the
// pickle opcodes torch emits, a zip writer (libzip, entries stored as torch
// stores them), and a synthetic model's tensors as pytorch_model.bin.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "vit/formats/safetensors.h"
#include "vit/model/model.h"

namespace vit::testing {

// Appends pickle opcodes; every method returns *this to chain.
class PickleWriter {
public:
    PickleWriter& proto(int version = 2);
    PickleWriter& op(uint8_t code);  // any opcode without an argument: '(' MARK, 't' TUPLE, 'R' REDUCE, ...
    PickleWriter& raw(const std::string& bytes);
    PickleWriter& global(const std::string& module, const std::string& name);  // GLOBAL
    PickleWriter& str(const std::string& s);                                   // BINUNICODE
    PickleWriter& integer(int64_t v);                                          // BININT1 / BININT / LONG1
    PickleWriter& put(uint8_t index);                                          // BINPUT
    PickleWriter& get(uint8_t index);                                          // BINGET
    PickleWriter& ordered_dict();                                              // collections.OrderedDict()
    // torch._utils._rebuild_tensor_v2(('storage', torch.<storage_type>, key,
    // 'cpu', numel), offset, size, stride, False, OrderedDict()), leaving the
    // tensor on the stack.
    PickleWriter& tensor(const std::string& storage_type, const std::string& key, int64_t numel, int64_t offset,
                         const std::vector<int64_t>& size, const std::vector<int64_t>& stride);
    PickleWriter& tuple_of(const std::vector<int64_t>& ints);
    PickleWriter& stop() { return op('.'); }
    const std::string& bytes() const { return bytes_; }

private:
    std::string bytes_;
};

// Writes a zip archive of (name, bytes), every entry stored uncompressed
// unless listed in `deflated`.
void write_zip(const std::string& path, const std::vector<std::pair<std::string, std::string>>& entries,
               const std::vector<std::string>& deflated = {});

// A torch.save archive in folder `prefix`: PREFIX/data.pkl, PREFIX/data/<key>
// for each storage, PREFIX/version "3", and PREFIX/byteorder when not empty.
void write_torch_archive(const std::string& path, const std::string& pickle,
                         const std::map<std::string, std::string>& storages, const std::string& prefix = "archive",
                         const std::string& byteorder = "little");

// The tensors as a state dict (an OrderedDict, one storage per tensor, in the
// tensors' dtype) in torch.save's zip format: what torch.save(state_dict) writes.
std::string torch_checkpoint_bytes(const std::vector<TensorToWrite>& tensors);
void write_torch_checkpoint(const std::string& path, const std::vector<TensorToWrite>& tensors);

// write_checkpoint's folder with pytorch_model.bin in place of model.safetensors.
void write_torch_model(const Model& m, const std::string& dir, const std::string& scheme, DType dtype);

// A tensor's values in a dtype's bytes (little-endian).
std::string tensor_bytes(const std::vector<float>& values, DType dtype);

}  // namespace vit::testing
