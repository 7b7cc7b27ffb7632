// safetensors reading (validated, memory-mapped), writing, and the half-float
// conversions both need.
#include "vit/formats/safetensors.h"
#include "vit/base/charconv_compat.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <csetjmp>
#include <csignal>
#include <cstring>
#include <mutex>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <utility>

#include "vit/base/error.h"
#include "vit/base/output_file.h"
#include "vit/base/shape_string.h"
#include "vit/base/untrusted_json.h"

static_assert(std::endian::native == std::endian::little, "safetensors data is little-endian and is read in place");

namespace vit {
namespace {

using json = nlohmann::json;

// A header larger than this is not a model header but a corrupt length field;
// refusing it early avoids allocating or parsing gigabytes of garbage.
constexpr uint64_t kMaxHeaderBytes = 100ull * 1000 * 1000;

[[noreturn]] void fail(const std::string& path, const std::string& what) { throw Error(path + ": " + what); }

size_t dtype_size(DType d) { return d == DType::F32 ? 4 : 2; }

const char* dtype_name(DType d) {
    switch (d) {
        case DType::F32: return "F32";
        case DType::F16: return "F16";
        case DType::BF16: return "BF16";
    }
    return "?";
}

bool parse_dtype(const std::string& s, DType& out) {
    if (s == "F32") out = DType::F32;
    else if (s == "F16") out = DType::F16;
    else if (s == "BF16") out = DType::BF16;
    else return false;
    return true;
}

// Offsets and dimensions must be plain non-negative JSON integers.
bool as_u64(const json& j, uint64_t& out) {
    if (j.is_number_unsigned()) {
        out = j.get<uint64_t>();
        return true;
    }
    if (j.is_number_integer() && j.get<int64_t>() >= 0) {
        out = static_cast<uint64_t>(j.get<int64_t>());
        return true;
    }
    return false;
}

struct Entry {
    std::string name;
    uint64_t begin, end;
};

// Validates one header entry and fills `info` (data pointer relative to the data section).
TensorInfo parse_entry(const std::string& path, const std::string& name, const json& j, uint64_t data_size,
                       Entry& range) {
    const std::string where = "tensor '" + quote_for_error(name) + "'";
    if (!j.is_object()) fail(path, where + " header entry is not a JSON object");
    if (!j.contains("dtype") || !j["dtype"].is_string()) fail(path, where + " has no dtype string");
    if (!j.contains("shape") || !j["shape"].is_array()) fail(path, where + " has no shape array");
    if (!j.contains("data_offsets") || !j["data_offsets"].is_array() || j["data_offsets"].size() != 2)
        fail(path, where + " has no data_offsets pair");

    TensorInfo info{};
    const std::string dtype = j["dtype"].get<std::string>();
    if (!parse_dtype(dtype, info.dtype))
        fail(path, where + " has dtype " + quote_for_error(dtype) + "; only F32, F16 and BF16 are supported");

    uint64_t numel = 1;
    for (const json& d : j["shape"]) {
        uint64_t n = 0;
        if (!as_u64(d, n))
            fail(path, where + " has a shape entry that is not a non-negative integer: " + quote_for_error(d));
        if (n > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
            fail(path, where + " has an impossibly large dimension " + std::to_string(n));
        if (n != 0 && numel > std::numeric_limits<uint64_t>::max() / 8 / n)
            fail(path, where + " has an impossibly large shape");
        numel *= n;
        info.shape.push_back(static_cast<int64_t>(n));
    }

    uint64_t begin = 0, end = 0;
    if (!as_u64(j["data_offsets"][0], begin) || !as_u64(j["data_offsets"][1], end))
        fail(path, where + " data_offsets are not non-negative integers");
    if (end < begin)
        fail(path, where + " data_offsets [" + std::to_string(begin) + ", " + std::to_string(end) +
                       ") end before they begin");
    if (end > data_size)
        fail(path, where + " data offsets [" + std::to_string(begin) + ", " + std::to_string(end) +
                       ") lie outside the data section (" + std::to_string(data_size) + " bytes; file truncated?)");
    const uint64_t expected = numel * dtype_size(info.dtype);
    if (end - begin != expected)
        fail(path, where + " has shape " + shape_string(info.shape) + " of " + dtype + " (" + std::to_string(expected) +
                       " bytes) but data_offsets span " + std::to_string(end - begin) + " bytes");
    info.nbytes = static_cast<size_t>(expected);
    range = {name, begin, end};
    return info;
}

void check_no_overlap(const std::string& path, std::vector<Entry> ranges) {
    std::sort(ranges.begin(), ranges.end(), [](const Entry& a, const Entry& b) {
        return a.begin < b.begin || (a.begin == b.begin && a.end < b.end);
    });
    for (size_t i = 1; i < ranges.size(); ++i) {
        const Entry& a = ranges[i - 1];
        const Entry& b = ranges[i];
        if (b.begin < a.end)
            fail(path, "tensors '" + a.name + "' [" + std::to_string(a.begin) + ", " + std::to_string(a.end) +
                           ") and '" + b.name + "' [" + std::to_string(b.begin) + ", " + std::to_string(b.end) +
                           ") overlap");
    }
}

}  // namespace

int64_t TensorInfo::numel() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

namespace {

// A file truncated while mapped turns reads of the lost pages into SIGBUS.
// Reads of the mapping run under this guard, which turns that into an error.
thread_local sigjmp_buf* bus_escape = nullptr;

void on_sigbus(int sig) {
    if (bus_escape) siglongjmp(*bus_escape, 1);
    std::signal(sig, SIG_DFL);  // not ours: die as the signal would have
    std::raise(sig);
}

// Runs copy(); false when the mapping lost pages under it. copy() must own
// nothing that needs destroying: a SIGBUS leaves it by siglongjmp.
template <typename Copy>
bool copy_from_mapping(Copy&& copy) {
    static std::once_flag installed;
    std::call_once(installed, [] {
        struct sigaction action {};
        action.sa_handler = on_sigbus;
        sigemptyset(&action.sa_mask);
        ::sigaction(SIGBUS, &action, nullptr);
    });
    sigjmp_buf escape;
    if (sigsetjmp(escape, 1)) {
        bus_escape = nullptr;
        return false;
    }
    bus_escape = &escape;
    copy();
    bus_escape = nullptr;
    return true;
}

}  // namespace

SafeTensors::SafeTensors(const std::string& path) : path_(path) {
    // O_NONBLOCK: a FIFO in the model's place must not wait for a writer.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) fail(path, std::string("cannot open (") + std::strerror(errno) + ")");
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        fail(path, "not a regular file");
    }
    const uint64_t file_size = static_cast<uint64_t>(st.st_size);
    if (file_size < 8) {
        ::close(fd);
        fail(path,
             "file is " + std::to_string(file_size) + " bytes, too short for the 8-byte safetensors header length");
    }
    void* map = ::mmap(nullptr, file_size, PROT_READ, MAP_PRIVATE, fd, 0);
    const int map_errno = errno;
    ::close(fd);  // the mapping keeps the file alive
    if (map == MAP_FAILED) fail(path, std::string("cannot map the file (") + std::strerror(map_errno) + ")");
    map_ = map;
    map_size_ = static_cast<size_t>(file_size);

    // From here a throw must unmap: the destructor does not run for a failed constructor.
    try {
        const auto* bytes = static_cast<const uint8_t*>(map_);
        uint64_t header_len = 0;
        std::memcpy(&header_len, bytes, 8);
        if (header_len > kMaxHeaderBytes)
            fail(path,
                 "header length " + std::to_string(header_len) + " is over the 100 MB limit (not a safetensors file?)");
        if (header_len > file_size - 8)
            fail(path, "header length " + std::to_string(header_len) + " runs past the end of the file (" +
                           std::to_string(file_size) + " bytes)");
        if (header_len == 0) fail(path, "header length is 0 (empty header)");

        const json header = parse_untrusted_json(std::string_view(reinterpret_cast<const char*>(bytes) + 8, header_len),
                                                 path + ": header");
        if (!header.is_object()) fail(path, "header is not a JSON object");

        const uint64_t data_start = 8 + header_len;
        const uint64_t data_size = file_size - data_start;
        std::vector<Entry> ranges;
        for (const auto& [name, value] : header.items()) {
            if (name == "__metadata__") {
                if (!value.is_object()) fail(path, "__metadata__ is not a JSON object");
                // The format says string -> string; other values are kept as their JSON text.
                for (const auto& [k, v] : value.items())
                    metadata_[k] =
                        v.is_string() ? v.get<std::string>() : v.dump(-1, ' ', false, json::error_handler_t::replace);
                continue;
            }
            Entry range;
            TensorInfo info = parse_entry(path, name, value, data_size, range);
            info.data = bytes + data_start + range.begin;
            ranges.push_back(range);
            tensors_.emplace(name, std::move(info));
        }
        check_no_overlap(path, std::move(ranges));
    } catch (...) {
        ::munmap(map_, map_size_);
        map_ = nullptr;
        throw;
    }
}

SafeTensors::~SafeTensors() {
    if (map_) ::munmap(map_, map_size_);
}

const TensorInfo& SafeTensors::info(const std::string& name) const {
    auto it = tensors_.find(name);
    if (it == tensors_.end()) fail(path_, "tensor '" + name + "' is missing");
    return it->second;
}

std::vector<float> SafeTensors::to_f32(const std::string& name, const std::vector<int64_t>& expected_shape) const {
    const TensorInfo& t = info(name);
    const auto n = static_cast<size_t>(t.numel());
    if (!expected_shape.empty()) {
        int64_t expected = 1;
        for (int64_t d : expected_shape) expected *= d;
        if (expected != t.numel())
            fail(path_, "tensor '" + name + "' has shape " + shape_string(t.shape) + ", expected " +
                            shape_string(expected_shape));
    }
    std::vector<float> out(n);
    float* dst = out.data();
    const bool copied = copy_from_mapping([&] {
        // The mapping is only byte-aligned in general, so elements are copied, not cast.
        if (t.dtype == DType::F32) {
            if (n) std::memcpy(dst, t.data, n * 4);
            return;
        }
        for (size_t i = 0; i < n; ++i) {
            uint16_t h;
            std::memcpy(&h, t.data + 2 * i, 2);
            dst[i] = t.dtype == DType::F16 ? f16_to_f32(h) : bf16_to_f32(h);
        }
    });
    if (!copied) fail(path_, "the file changed while it was read (truncated under vitscope?)");
    return out;
}

void write_safetensors(const std::string& path, const std::vector<TensorToWrite>& tensors) {
    json header = json::object();
    uint64_t offset = 0;
    for (const TensorToWrite& t : tensors) {
        int64_t numel = 1;
        for (int64_t d : t.shape) numel *= d;
        if (numel != static_cast<int64_t>(t.values.size()))
            fail(path, "tensor '" + t.name + "' has shape " + shape_string(t.shape) + " but " +
                           std::to_string(t.values.size()) + " values");
        const uint64_t bytes = static_cast<uint64_t>(numel) * dtype_size(t.dtype);
        header[t.name] = {{"dtype", dtype_name(t.dtype)},
                          {"shape", t.shape},
                          {"data_offsets", {offset, offset + bytes}}};
        offset += bytes;
    }
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' ');  // pad so the data section starts 8-byte aligned

    // Whole or nothing, replacing an earlier file; a full disk or a signal leaves no temporary, and errno is named.
    OutputRules replace;
    replace.force = true;
    OutputTemp out(path, replace);
    const uint64_t len = text.size();
    out.write(std::string_view(reinterpret_cast<const char*>(&len), 8));
    out.write(text);
    for (const TensorToWrite& t : tensors) {
        if (t.dtype == DType::F32) {
            out.write(std::string_view(reinterpret_cast<const char*>(t.values.data()), t.values.size() * 4));
            continue;
        }
        std::vector<uint16_t> half(t.values.size());
        for (size_t i = 0; i < half.size(); ++i)
            half[i] = t.dtype == DType::F16 ? f32_to_f16(t.values[i]) : f32_to_bf16(t.values[i]);
        out.write(std::string_view(reinterpret_cast<const char*>(half.data()), half.size() * 2));
    }
    out.commit();
}

float f16_to_f32(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1Fu;
    const uint32_t mant = h & 0x3FFu;
    if (exp == 0x1F) return vit::bit_cast<float>(sign | 0x7F800000u | (mant << 13));  // inf / NaN
    if (exp == 0) {
        // Zero or subnormal: mant * 2^-24, exact in f32.
        const float v = std::ldexp(static_cast<float>(mant), -24);
        return sign ? -v : v;
    }
    return vit::bit_cast<float>(sign | ((exp + 112) << 23) | (mant << 13));
}

float bf16_to_f32(uint16_t b) { return vit::bit_cast<float>(static_cast<uint32_t>(b) << 16); }

uint16_t f32_to_f16(float f) {
    const uint32_t x = vit::bit_cast<uint32_t>(f);
    const auto sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
    const float a = std::fabs(f);
    if (std::isnan(f)) return static_cast<uint16_t>(sign | 0x7E00u);
    if (a >= 65520.0f) return static_cast<uint16_t>(sign | 0x7C00u);  // rounds to infinity
    if (a < 6.103515625e-05f) {
        // Subnormal range: units of 2^-24, rounded to nearest even by the FPU.
        const float units = std::nearbyint(a * 16777216.0f);
        return static_cast<uint16_t>(sign | static_cast<uint16_t>(units));
    }
    // Normal: keep 10 mantissa bits, round to nearest even on the 13 dropped bits.
    const uint32_t ax = x & 0x7FFFFFFFu;
    const uint32_t rounded = ax + 0x0FFFu + ((ax >> 13) & 1u);
    const uint32_t exp = (rounded >> 23) - 112;
    return static_cast<uint16_t>(sign | (exp << 10) | ((rounded >> 13) & 0x3FFu));
}

uint16_t f32_to_bf16(float f) {
    const uint32_t x = vit::bit_cast<uint32_t>(f);
    if (std::isnan(f)) return static_cast<uint16_t>((x >> 16) | 0x40u);  // stay a (quiet) NaN
    const uint32_t rounded = x + 0x7FFFu + ((x >> 16) & 1u);             // round to nearest even
    return static_cast<uint16_t>(rounded >> 16);
}

}  // namespace vit
