#include "vit/forward/half_tokens.h"

#include <cmath>
#include <cstring>

#include "vit/base/error.h"

namespace vit {
namespace {

constexpr float kHalfMax = 65504.0f;

void append_half(std::string& out, const Mat& m, const char* what, int layer, int head) {
    for (Eigen::Index i = 0; i < m.size(); ++i) {
        const float x = m.data()[i];
        if (!std::isfinite(x) || std::fabs(x) > kHalfMax)
            throw Error(std::string(what) + " of layer " + std::to_string(layer) + " head " + std::to_string(head) +
                        " holds " + std::to_string(x) + ", beyond a 16-bit float's range");
        const uint16_t h = to_half_bits(x);
        out += static_cast<char>(h & 0xff);  // little-endian, as the page's DataView reads it
        out += static_cast<char>(h >> 8);
    }
}

}  // namespace

uint16_t to_half_bits(float x) { return Eigen::numext::bit_cast<uint16_t>(Eigen::half(x)); }

float from_half_bits(uint16_t bits) { return static_cast<float>(Eigen::numext::bit_cast<Eigen::half>(bits)); }

std::string half_qkv_bytes(const Trace& t) {
    std::string out;
    size_t total = 0;
    for (const LayerTrace& l : t.layers)
        for (const HeadTrace& h : l.heads) total += static_cast<size_t>(h.q.size() + h.k.size() + h.v.size()) * 2;
    out.reserve(total);
    for (size_t l = 0; l < t.layers.size(); ++l)
        for (size_t h = 0; h < t.layers[l].heads.size(); ++h) {
            const HeadTrace& ht = t.layers[l].heads[h];
            if (ht.q.size() == 0 || ht.k.size() == 0 || ht.v.size() == 0)
                throw Error("this trace was run without q, k and v");
            append_half(out, ht.q, "q", static_cast<int>(l), static_cast<int>(h));
            append_half(out, ht.k, "k", static_cast<int>(l), static_cast<int>(h));
            append_half(out, ht.v, "v", static_cast<int>(l), static_cast<int>(h));
        }
    return out;
}

}  // namespace vit
