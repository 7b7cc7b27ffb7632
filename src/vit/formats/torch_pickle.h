// The pickle inside a torch.save checkpoint (data.pkl), read by a small
// interpreter that knows only what a state dict is made of: dicts, tuples,
// strings, numbers, the storage references torch writes as persistent ids, and
// the few functions torch names to rebuild a tensor. It never executes
// anything: any other global (os.system, builtins.eval, ...) is refused with
// an error naming it, as are opcodes a state dict does not use.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace vit {

// The element types of torch's storage classes (torch.FloatStorage, ...).
enum class TorchDType { F64, F32, F16, BF16, I64, I32, I16, I8, U8, Bool };
size_t torch_dtype_size(TorchDType d);
const char* torch_dtype_name(TorchDType d);  // "float32", "bfloat16", ...
bool torch_dtype_is_float(TorchDType d);

// A storage a tensor views: the archive entry <prefix>/data/<key>, holding
// numel elements of dtype.
struct TorchStorage {
    std::string key;
    TorchDType dtype = TorchDType::F32;
    uint64_t numel = 0;
};

// torch._utils._rebuild_tensor_v2(storage, storage_offset, size, stride, ...):
// element i of the tensor (row-major index (i_0, .., i_n)) is storage element
// offset + sum i_k * stride[k]. Every element lies inside the storage.
struct TorchTensor {
    size_t storage = 0;  // index into TorchStateDict::storages
    uint64_t offset = 0;
    std::vector<int64_t> shape, stride;
    bool negated = false;  // torch >= 2's "neg" bit: the values are the storage's negated
    uint64_t numel() const;
    uint64_t last_element() const;  // the largest storage index it reads (numel() > 0)
};

struct TorchStateDict {
    std::vector<TorchStorage> storages;
    std::map<std::string, TorchTensor> tensors;
};

// Bytes from a checkpoint (names, keys) made safe for a one-line message:
// control characters become '?', and over 200 bytes are cut.
std::string cut_printable(const std::string& s);

// Interprets data.pkl and returns its state dict: the top-level dict of name ->
// tensor, or the dict under its "state_dict" or "model" key when the top level
// wraps one. `where` starts every error message (the checkpoint's path).
// Throws vit::Error on anything else, naming what was refused.
TorchStateDict parse_torch_pickle(const uint8_t* data, size_t size, const std::string& where);

}  // namespace vit
