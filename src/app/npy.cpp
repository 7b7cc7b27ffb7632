#include "app/npy.h"

#include <cstring>

#include <Eigen/Core>

namespace app {

namespace {

std::string encode(const std::vector<int64_t>& shape, const char* descr, const void* data, size_t item_size) {
    std::string dims;
    int64_t count = 1;
    for (int64_t d : shape) {
        dims += std::to_string(d) + ",";
        count *= d;
    }
    if (shape.size() > 1) dims.pop_back();  // (3,) needs its comma, (3,4) does not end with one
    std::string header = "{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': (" + dims + "), }";
    // Magic (6) + version (2) + length (2) + header + '\n' is padded to a multiple of 64.
    const size_t total = 10 + header.size() + 1;
    header.append((64 - total % 64) % 64, ' ');
    header += '\n';
    std::string out = "\x93NUMPY\x01";
    out += '\0';
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>(header.size() >> 8);
    out += header;
    const size_t offset = out.size();
    out.resize(offset + count * item_size);
    std::memcpy(out.data() + offset, data, count * item_size);
    return out;
}

}  // namespace

std::string encode_npy(const std::vector<int64_t>& shape, const float* data) {
    return encode(shape, "<f4", data, sizeof(float));
}

std::string encode_npy(const std::vector<int64_t>& shape, const uint8_t* data) { return encode(shape, "|u1", data, 1); }

std::string encode_npy(const std::vector<int64_t>& shape, const int64_t* data) {
    return encode(shape, "<i8", data, sizeof(int64_t));
}

std::string encode_npy_half(const std::vector<int64_t>& shape, const float* data) {
    int64_t count = 1;
    for (int64_t d : shape) count *= d;
    std::vector<uint16_t> half(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) half[i] = Eigen::numext::bit_cast<uint16_t>(Eigen::half(data[i]));
    return encode(shape, "<f2", half.data(), sizeof(uint16_t));
}

}  // namespace app
