// Minimal NumPy .npy (format 1.0, little-endian float32 or uint8, C order)
// encoder (and float16), so the Python reference tests can read vitscope's numbers without
// parsing text.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace app {

std::string encode_npy(const std::vector<int64_t>& shape, const float* data);
std::string encode_npy(const std::vector<int64_t>& shape, const uint8_t* data);
std::string encode_npy(const std::vector<int64_t>& shape, const int64_t* data);  // '<i8': class labels
// The floats as float16 ('<f2'), rounded to nearest even (Eigen::half).
std::string encode_npy_half(const std::vector<int64_t>& shape, const float* data);

}  // namespace app
