// pytorch_model.bin through libzip, laid out as torch's PyTorchStreamReader
// (caffe2/serialize/inline_container.cc) and serialization.py's _load expect.
// Entries are read by exact sizes from the central directory, so libzip's CRC
// check (made only at a read past an entry's end) never runs: torch.load does
// not check CRCs either, and torch.serialization.set_crc32_options(False)
// writes archives without them.
#include "vit/formats/torch_checkpoint.h"
#include "vit/base/charconv_compat.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

#include <bit>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

#include "vit/base/error.h"
#include "vit/formats/safetensors.h"  // f16_to_f32, bf16_to_f32

static_assert(std::endian::native == std::endian::little, "little-endian storages are read in place");

namespace vit {
namespace {

// data.pkl of a state dict takes about 150 bytes per tensor: 32 MB is 200 000 tensors.
constexpr uint64_t kMaxPickleBytes = 32ull << 20;
constexpr uint64_t kMaxRecordBytes = 64;  // version, byteorder
// caffe2/serialize/versions.h: kMinSupportedFileFormatVersion .. kMaxSupportedFileFormatVersion.
constexpr uint64_t kMinVersion = 1, kMaxVersion = 10;

std::string libzip_message(int code) {
    zip_error_t e;
    zip_error_init_with_code(&e, code);
    std::string s = zip_error_strerror(&e);
    zip_error_fini(&e);
    return s;
}

struct ZipFileCloser {
    void operator()(zip_file_t* f) const { zip_fclose(f); }
};

float f64_to_f32(double d) {
    // Out of float's range is undefined in a cast: such a weight becomes
    // infinite, which load_model then refuses as damaged.
    if (std::isnan(d)) return std::numeric_limits<float>::quiet_NaN();
    if (std::fabs(d) > static_cast<double>(FLT_MAX))
        return d > 0 ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity();
    return static_cast<float>(d);
}

uint16_t byte_swap(uint16_t v) { return __builtin_bswap16(v); }
uint32_t byte_swap(uint32_t v) { return __builtin_bswap32(v); }
uint64_t byte_swap(uint64_t v) { return __builtin_bswap64(v); }

// Calls visit(i, e) for each element i of the tensor in row-major order, e
// being its storage element relative to the tensor's first (t.offset).
template <typename Visit>
void for_each_element(const TorchTensor& t, Visit&& visit) {
    if (t.shape.empty()) {
        visit(uint64_t{0}, uint64_t{0});
        return;
    }
    // The innermost dimension in a loop, the others as an odometer.
    const size_t nd = t.shape.size();
    const uint64_t inner = static_cast<uint64_t>(t.shape[nd - 1]);
    const uint64_t inner_stride = static_cast<uint64_t>(t.stride[nd - 1]);
    std::vector<int64_t> index(nd, 0);
    uint64_t base = 0;  // storage element of index (.., 0)
    for (uint64_t row = 0, at = 0, rows = t.numel() / inner; row < rows; ++row) {
        for (uint64_t j = 0; j < inner; ++j) visit(at++, base + j * inner_stride);
        for (size_t k = nd - 1; k-- > 0;) {
            base += static_cast<uint64_t>(t.stride[k]);
            if (++index[k] < t.shape[k]) break;
            base -= static_cast<uint64_t>(t.stride[k]) * static_cast<uint64_t>(t.shape[k]);
            index[k] = 0;
        }
    }
}

// Elements stored as Bits (little-endian unless swap) converted by convert(bits).
template <typename Bits, typename Convert>
void convert_all(const TorchTensor& t, const uint8_t* raw, bool swap, float* out, Convert convert) {
    const float sign = t.negated ? -1.0f : 1.0f;
    for_each_element(t, [&](uint64_t i, uint64_t e) {
        Bits bits;
        std::memcpy(&bits, raw + e * sizeof(Bits), sizeof(Bits));
        out[i] = sign * convert(swap ? byte_swap(bits) : bits);
    });
}

// torch's is_contiguous: row-major strides, ignoring dimensions of size 1.
bool contiguous(const TorchTensor& t) {
    uint64_t expected = 1;
    for (size_t k = t.shape.size(); k-- > 0;) {
        if (t.shape[k] != 1 && static_cast<uint64_t>(t.stride[k]) != expected) return false;
        expected *= static_cast<uint64_t>(t.shape[k]);
    }
    return true;
}

}  // namespace

TorchCheckpoint::TorchCheckpoint(const std::string& path) : path_(path) {
    // O_NONBLOCK: a FIFO in the model's place must not wait for a writer.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) fail(std::string("cannot open (") + std::strerror(errno) + ")");
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        fail("not a regular file");
    }
    // Before 1.6 (or with _use_new_zipfile_serialization=False) torch.save wrote
    // a bare pickle stream starting with protocol 2's PROTO opcode.
    uint8_t head[2] = {0, 0};
    if (::pread(fd, head, 2, 0) == 2 && head[0] == 0x80 && head[1] == 0x02) {
        ::close(fd);
        fail(
            "a legacy torch.save file (PyTorch before 1.6, or _use_new_zipfile_serialization=False); only "
            "torch.save's zip format is read (load and save it again with a current PyTorch)");
    }
    int code = 0;
    zip_ = zip_fdopen(fd, ZIP_CHECKCONS, &code);
    if (!zip_) {
        ::close(fd);
        fail("not a readable zip archive, as torch.save writes (libzip: " + libzip_message(code) +
             (st.st_size == 0 ? "; the file is empty" : "") + ")");
    }
    try {
        open_archive();
    } catch (...) {
        zip_discard(zip_);
        zip_ = nullptr;
        throw;
    }
}

TorchCheckpoint::~TorchCheckpoint() {
    if (zip_) zip_discard(zip_);  // opened read-only: nothing to write back
}

std::string TorchCheckpoint::format() const {
    return "PyTorch zip checkpoint (torch.save, format version " + std::to_string(version_) +
           (big_endian_ ? ", big-endian" : "") + ")";
}

void TorchCheckpoint::fail(const std::string& what) const { throw Error(path_ + ": " + what); }

// The index of <prefix>/name, or -1.
int64_t TorchCheckpoint::locate(const std::string& name) const {
    if (name.find('\0') != std::string::npos) return -1;  // would match a shorter name
    return zip_name_locate(zip_, (prefix_ + name).c_str(), ZIP_FL_ENC_RAW);
}

std::string TorchCheckpoint::entry_name(uint64_t index) const {
    const char* name = zip_get_name(zip_, index, ZIP_FL_ENC_RAW);
    return cut_printable(name ? name : "?");
}

// The entry's size, checked to be stored as torch writes it: uncompressed,
// unencrypted, so reads can seek and sizes cannot expand.
uint64_t TorchCheckpoint::stored_size(uint64_t index) const {
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(zip_, index, 0, &st) != 0)
        fail(std::string("cannot read the archive's directory (libzip: ") + zip_strerror(zip_) + ")");
    const std::string name = entry_name(index);
    if (!(st.valid & ZIP_STAT_SIZE)) fail("archive entry " + name + " has no size");
    if ((st.valid & ZIP_STAT_COMP_METHOD) && st.comp_method != ZIP_CM_STORE)
        fail("archive entry " + name + " is compressed; torch.save stores every entry uncompressed");
    if ((st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method != ZIP_EM_NONE)
        fail("archive entry " + name + " is encrypted");
    return st.size;
}

void TorchCheckpoint::read(uint64_t index, uint64_t offset, uint64_t length, uint8_t* dst) const {
    std::unique_ptr<zip_file_t, ZipFileCloser> f(zip_fopen_index(zip_, index, 0));
    const std::string entry = entry_name(index);
    if (!f) fail("cannot open archive entry " + entry + " (libzip: " + zip_strerror(zip_) + ")");
    if (offset && zip_fseek(f.get(), static_cast<zip_int64_t>(offset), SEEK_SET) != 0)
        fail("cannot seek in archive entry " + entry + " (libzip: " + zip_file_strerror(f.get()) + ")");
    for (uint64_t done = 0; done < length;) {
        const zip_int64_t n = zip_fread(f.get(), dst + done, length - done);
        if (n <= 0)
            fail("archive entry " + entry + " ends early (" + (n < 0 ? zip_file_strerror(f.get()) : "end of data") +
                 "; file truncated or damaged?)");
        done += static_cast<uint64_t>(n);
    }
}

std::string TorchCheckpoint::read_record(uint64_t index, uint64_t limit) const {
    const uint64_t size = stored_size(index);
    if (size > limit)
        fail("archive entry " + entry_name(index) + " is " + std::to_string(size) + " bytes, over the " +
             std::to_string(limit) + "-byte limit");
    std::string s(static_cast<size_t>(size), '\0');
    read(index, 0, size, reinterpret_cast<uint8_t*>(s.data()));
    return s;
}

void TorchCheckpoint::open_archive() {
    // PyTorchStreamReader: every record lives in the folder of the first entry.
    if (zip_get_num_entries(zip_, 0) <= 0) fail("the zip archive is empty");
    const char* first = zip_get_name(zip_, 0, ZIP_FL_ENC_RAW);
    const std::string first_name = first ? first : "";
    const size_t slash = first_name.find('/');
    if (slash == std::string::npos)
        fail("not a torch.save archive: its first entry '" + cut_printable(first_name) + "' is not in a folder");
    prefix_ = first_name.substr(0, slash + 1);
    if (cut_printable(prefix_) != prefix_) fail("not a torch.save archive: its folder name holds control characters");

    int64_t v = locate(".data/version");
    if (v < 0) v = locate("version");
    if (v < 0) fail("not a torch.save archive: it has no " + prefix_ + "version record");
    const std::string version = read_record(static_cast<uint64_t>(v), kMaxRecordBytes);
    size_t digits = 0;
    while (digits < version.size() && version[digits] >= '0' && version[digits] <= '9') ++digits;
    const bool only_space = version.find_first_not_of(" \t\r\n", digits) == std::string::npos;
    if (digits == 0 || digits > 6 || !only_space) fail("the version record is not a number");
    version_ = std::stoull(version.substr(0, digits));
    if (version_ < kMinVersion || version_ > kMaxVersion)
        fail("archive format version " + std::to_string(version_) + " (torch reads 1 to 10)");

    // serialization.py _load: "little" or "big"; no record means little-endian.
    if (const int64_t b = locate("byteorder"); b >= 0) {
        const std::string order = read_record(static_cast<uint64_t>(b), kMaxRecordBytes);
        if (order == "big") big_endian_ = true;
        else if (order != "little")
            fail("unknown byte order '" + cut_printable(order.substr(0, 20)) + "' in " + prefix_ + "byteorder");
    }

    if (locate("constants.pkl") >= 0)
        fail("a TorchScript archive (torch.jit.save), not a state dict saved with torch.save");
    const int64_t pkl = locate("data.pkl");
    if (pkl < 0) fail("not a torch.save archive: it has no " + prefix_ + "data.pkl");
    const std::string pickle = read_record(static_cast<uint64_t>(pkl), kMaxPickleBytes);
    sd_ = parse_torch_pickle(reinterpret_cast<const uint8_t*>(pickle.data()), pickle.size(), path_);

    // Every storage a tensor uses must be there, holding exactly what data.pkl declares.
    for (const TorchStorage& s : sd_.storages) {
        const int64_t index = locate("data/" + s.key);
        if (index < 0) {
            std::string user;
            for (const auto& [name, t] : sd_.tensors)
                if (sd_.storages[t.storage].key == s.key) {
                    user = name;
                    break;
                }
            fail("tensor '" + user + "' uses storage '" + s.key + "', but the archive has no entry " + prefix_ +
                 "data/" + s.key);
        }
        const uint64_t bytes = stored_size(static_cast<uint64_t>(index));
        const uint64_t expected = s.numel * torch_dtype_size(s.dtype);  // < 2^63, bounded when parsed
        if (bytes != expected)
            fail("storage '" + s.key + "' is declared as " + std::to_string(s.numel) + " " + torch_dtype_name(s.dtype) +
                 " elements (" + std::to_string(expected) + " bytes) but its entry holds " + std::to_string(bytes) +
                 " bytes");
        storage_entry_.push_back(static_cast<uint64_t>(index));
    }
    for (const auto& [name, t] : sd_.tensors) shapes_[name] = t.shape;
}

std::vector<float> TorchCheckpoint::to_f32(const std::string& name) const {
    const auto it = sd_.tensors.find(name);
    if (it == sd_.tensors.end()) fail("tensor '" + name + "' is missing");
    const TorchTensor& t = it->second;
    const TorchStorage& s = sd_.storages[t.storage];
    if (!torch_dtype_is_float(s.dtype))
        fail("tensor '" + name + "' holds " + torch_dtype_name(s.dtype) +
             " values; only floating-point weights are read");
    const uint64_t n = t.numel();
    if (n == 0) return {};
    std::vector<float> out(static_cast<size_t>(n));
    const size_t es = torch_dtype_size(s.dtype);
    const uint64_t entry = storage_entry_[t.storage];
    // The common case, as torch.save writes most weights: straight into place.
    if (s.dtype == TorchDType::F32 && !big_endian_ && !t.negated && contiguous(t)) {
        read(entry, t.offset * es, n * es, reinterpret_cast<uint8_t*>(out.data()));
        return out;
    }
    // Otherwise the span of the storage the tensor reads (inside it, as checked on open), then element by element.
    std::vector<uint8_t> raw(static_cast<size_t>((t.last_element() - t.offset + 1) * es));
    read(entry, t.offset * es, raw.size(), raw.data());
    switch (s.dtype) {
        case TorchDType::F32:
            convert_all<uint32_t>(t, raw.data(), big_endian_, out.data(),
                                  [](uint32_t b) { return vit::bit_cast<float>(b); });
            break;
        case TorchDType::F16: convert_all<uint16_t>(t, raw.data(), big_endian_, out.data(), f16_to_f32); break;
        case TorchDType::BF16: convert_all<uint16_t>(t, raw.data(), big_endian_, out.data(), bf16_to_f32); break;
        case TorchDType::F64:
            convert_all<uint64_t>(t, raw.data(), big_endian_, out.data(),
                                  [](uint64_t b) { return f64_to_f32(vit::bit_cast<double>(b)); });
            break;
        default: fail("tensor '" + name + "' has no conversion to f32");  // not reached: refused above
    }
    return out;
}

}  // namespace vit
