// Random numbers that are the same on every machine and library: the
// standard distributions' algorithms are the library's choice, so training
// draws from mt19937_64 (which the standard fixes) through these.
#pragma once
#include <cmath>
#include <cstdint>
#include <random>

namespace vit::train {

// Uniform in [0, 1), 53 bits.
inline double uniform01(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }
// Uniform integer in [0, n).
inline int uniform_int(std::mt19937_64& rng, int n) { return static_cast<int>(uniform01(rng) * n); }
// Standard normal by Box-Muller.
inline double standard_normal(std::mt19937_64& rng) {
    const double u1 = 1.0 - uniform01(rng), u2 = uniform01(rng);
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}
// Standard normal cut at +-2 (timm's trunc_normal_ with a = -2 std, b = 2 std), by rejection.
inline double truncated_normal(std::mt19937_64& rng) {
    for (;;) {
        const double x = standard_normal(rng);
        if (std::fabs(x) <= 2.0) return x;
    }
}

}  // namespace vit::train
