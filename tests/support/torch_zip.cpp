#include "support/torch_zip.h"

#include <zip.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "support/scratch_dir.h"
#include "support/synthetic_model.h"

namespace vit::testing {

PickleWriter& PickleWriter::proto(int version) {
    bytes_ += '\x80';
    bytes_ += static_cast<char>(version);
    return *this;
}

PickleWriter& PickleWriter::op(uint8_t code) {
    bytes_ += static_cast<char>(code);
    return *this;
}

PickleWriter& PickleWriter::raw(const std::string& bytes) {
    bytes_ += bytes;
    return *this;
}

PickleWriter& PickleWriter::global(const std::string& module, const std::string& name) {
    bytes_ += 'c' + module + '\n' + name + '\n';
    return *this;
}

PickleWriter& PickleWriter::str(const std::string& s) {
    bytes_ += 'X';
    const uint32_t n = static_cast<uint32_t>(s.size());
    for (int i = 0; i < 4; ++i) bytes_ += static_cast<char>(n >> (8 * i));
    bytes_ += s;
    return *this;
}

PickleWriter& PickleWriter::integer(int64_t v) {
    if (v >= 0 && v < 256) {
        bytes_ += 'K';
        bytes_ += static_cast<char>(v);
    } else if (v >= INT32_MIN && v <= INT32_MAX) {
        bytes_ += 'J';
        for (int i = 0; i < 4; ++i) bytes_ += static_cast<char>(static_cast<uint32_t>(v) >> (8 * i));
    } else {
        bytes_ += '\x8a';
        bytes_ += '\x08';
        for (int i = 0; i < 8; ++i) bytes_ += static_cast<char>(static_cast<uint64_t>(v) >> (8 * i));
    }
    return *this;
}

PickleWriter& PickleWriter::put(uint8_t index) {
    bytes_ += 'q';
    bytes_ += static_cast<char>(index);
    return *this;
}

PickleWriter& PickleWriter::get(uint8_t index) {
    bytes_ += 'h';
    bytes_ += static_cast<char>(index);
    return *this;
}

PickleWriter& PickleWriter::ordered_dict() { return global("collections", "OrderedDict").op(')').op('R'); }

PickleWriter& PickleWriter::tuple_of(const std::vector<int64_t>& ints) {
    op('(');
    for (int64_t v : ints) integer(v);
    return op('t');
}

PickleWriter& PickleWriter::tensor(const std::string& storage_type, const std::string& key, int64_t numel,
                                   int64_t offset, const std::vector<int64_t>& size,
                                   const std::vector<int64_t>& stride) {
    global("torch._utils", "_rebuild_tensor_v2").op('(');
    op('(').str("storage").global("torch", storage_type).str(key).str("cpu").integer(numel).op('t').op('Q');
    integer(offset).tuple_of(size).tuple_of(stride).op(0x89).ordered_dict();
    return op('t').op('R');
}

void write_zip(const std::string& path, const std::vector<std::pair<std::string, std::string>>& entries,
               const std::vector<std::string>& deflated) {
    int code = 0;
    zip_t* z = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &code);
    if (!z) throw std::runtime_error("write_zip: cannot create " + path);
    for (const auto& [name, bytes] : entries) {
        zip_source_t* src = zip_source_buffer(z, bytes.data(), bytes.size(), 0);  // entries outlive zip_close
        const zip_int64_t index = src ? zip_file_add(z, name.c_str(), src, ZIP_FL_ENC_UTF_8) : -1;
        if (index < 0) {
            if (src) zip_source_free(src);
            zip_discard(z);
            throw std::runtime_error("write_zip: cannot add " + name);
        }
        bool deflate = false;
        for (const std::string& d : deflated) deflate |= d == name;
        zip_set_file_compression(z, static_cast<zip_uint64_t>(index), deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0);
    }
    if (zip_close(z) != 0) {
        zip_discard(z);
        throw std::runtime_error("write_zip: cannot write " + path);
    }
}

void write_torch_archive(const std::string& path, const std::string& pickle,
                         const std::map<std::string, std::string>& storages, const std::string& prefix,
                         const std::string& byteorder) {
    std::vector<std::pair<std::string, std::string>> entries{{prefix + "/data.pkl", pickle}};
    if (!byteorder.empty()) entries.push_back({prefix + "/byteorder", byteorder});
    for (const auto& [key, bytes] : storages) entries.push_back({prefix + "/data/" + key, bytes});
    entries.push_back({prefix + "/version", "3\n"});
    write_zip(path, entries);
}

std::string tensor_bytes(const std::vector<float>& values, DType dtype) {
    std::string out;
    for (float v : values) {
        if (dtype == DType::F32) {
            out.append(reinterpret_cast<const char*>(&v), 4);
        } else {
            const uint16_t h = dtype == DType::F16 ? f32_to_f16(v) : f32_to_bf16(v);
            out.append(reinterpret_cast<const char*>(&h), 2);
        }
    }
    return out;
}

namespace {

const char* storage_type(DType d) {
    return d == DType::F32 ? "FloatStorage" : d == DType::F16 ? "HalfStorage" : "BFloat16Storage";
}

std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& shape) {
    std::vector<int64_t> stride(shape.size());
    int64_t s = 1;
    for (size_t i = shape.size(); i-- > 0;) {
        stride[i] = s;
        s *= shape[i];
    }
    return stride;
}

}  // namespace

void write_torch_checkpoint(const std::string& path, const std::vector<TensorToWrite>& tensors) {
    PickleWriter p;
    p.proto().ordered_dict().op('(');
    std::map<std::string, std::string> storages;
    for (size_t i = 0; i < tensors.size(); ++i) {
        const TensorToWrite& t = tensors[i];
        const std::string key = std::to_string(i);
        p.str(t.name).tensor(storage_type(t.dtype), key, static_cast<int64_t>(t.values.size()), 0, t.shape,
                             contiguous_strides(t.shape));
        storages[key] = tensor_bytes(t.values, t.dtype);
    }
    p.op('u').stop();
    write_torch_archive(path, p.bytes(), storages);
}

std::string torch_checkpoint_bytes(const std::vector<TensorToWrite>& tensors) {
    const ScratchDir dir("vitscope-torch-zip");  // libzip writes files only
    write_torch_checkpoint(dir.file("pytorch_model.bin"), tensors);
    std::ifstream in(dir.file("pytorch_model.bin"), std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

void write_torch_model(const Model& m, const std::string& dir, const std::string& scheme, DType dtype) {
    write_checkpoint(m, dir, scheme, dtype);
    std::filesystem::remove(std::filesystem::path(dir) / "model.safetensors");
    write_torch_checkpoint((std::filesystem::path(dir) / "pytorch_model.bin").string(),
                           scheme_tensors(m, scheme, dtype));
}

}  // namespace vit::testing
