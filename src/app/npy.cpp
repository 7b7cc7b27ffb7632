#include "npy.h"

#include <cstring>

namespace app {

std::string encode_npy(const std::vector<int64_t>& shape, const float* data) {
    std::string dims;
    int64_t count = 1;
    for (int64_t d : shape) {
        dims += std::to_string(d) + ",";
        count *= d;
    }
    if (shape.size() > 1) dims.pop_back();  // (3,) needs its comma, (3,4) does not end with one
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + dims + "), }";
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
    out.resize(offset + count * sizeof(float));
    std::memcpy(out.data() + offset, data, count * sizeof(float));
    return out;
}

}  // namespace app
