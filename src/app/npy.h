// Minimal NumPy .npy (format 1.0, little-endian float32 or uint8, C order)
// encoder, so the Python reference tests can read vitscope's numbers without
// parsing text.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace app {

std::string encode_npy(const std::vector<int64_t>& shape, const float* data);
std::string encode_npy(const std::vector<int64_t>& shape, const uint8_t* data);

}  // namespace app
