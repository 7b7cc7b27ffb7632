// A tensor's shape as the errors print it: "[192, 3, 16, 16]".
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace vit {

inline std::string shape_string(const std::vector<int64_t>& shape) {
    std::string s = "[";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

}  // namespace vit
