// A model input of fixed pseudo-random values in [-2, 2), for forward passes
// on synthetic models.
#pragma once
#include <cstdint>

#include "vit/image/preprocess.h"

namespace vit::testing {

inline Input random_input(int size, uint32_t seed) {
    Input in;
    in.size = size;
    in.chw.resize(3 * static_cast<size_t>(size) * size);
    uint32_t state = seed;
    for (float& v : in.chw) {
        state = state * 1664525u + 1013904223u;  // LCG: a fixed, portable sequence
        v = static_cast<float>(state >> 8) / 16777216.0f * 4.0f - 2.0f;
    }
    in.crop = {0, 0, static_cast<double>(size), static_cast<double>(size)};
    return in;
}

}  // namespace vit::testing
