// Every layer's and head's q, k and v as IEEE 754 binary16 ("half") floats,
// little-endian: the compact form the lesson page carries. Rounding to half
// is to nearest, ties to even (Eigen::half), so each value moves by at most
// 2^-11 of itself (normal range) or 2^-25 (below 2^-14, subnormal): the
// page's bound on its weights starts from there (web/lesson/lesson_math.js).
#pragma once
#include <cstdint>
#include <string>

#include "vit/forward/forward.h"

namespace vit {

// Layout: for each layer, for each head: q, then k, then v, each tokens x
// head_dim row-major (token-major), 2 bytes a value. Throws vit::Error when a
// value is not finite or beyond half's range (|x| > 65504), or the trace was
// run without q, k and v.
std::string half_qkv_bytes(const Trace& t);

// One float rounded to half, and back (what the page reads).
uint16_t to_half_bits(float x);
float from_half_bits(uint16_t bits);

}  // namespace vit
