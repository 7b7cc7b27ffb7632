// The lesson page's encodings: base64 (RFC 4648's own test vectors), the
// rounding to 16-bit floats (IEEE 754 values worked out by hand, every half
// back to itself, the 2^-11 relative bound) and the q|k|v layout the page's
// script reads (web/lesson/lesson_math.js headArrays).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "support/synthetic_trace.h"
#include "vit/base/base64.h"
#include "vit/base/error.h"
#include "vit/forward/half_tokens.h"

namespace {

TEST(Base64, Rfc4648Vectors) {
    EXPECT_EQ(vit::base64_encode(""), "");
    EXPECT_EQ(vit::base64_encode("f"), "Zg==");
    EXPECT_EQ(vit::base64_encode("fo"), "Zm8=");
    EXPECT_EQ(vit::base64_encode("foo"), "Zm9v");
    EXPECT_EQ(vit::base64_encode("foob"), "Zm9vYg==");
    EXPECT_EQ(vit::base64_encode("fooba"), "Zm9vYmE=");
    EXPECT_EQ(vit::base64_encode("foobar"), "Zm9vYmFy");
}

TEST(Base64, HighBytesUseTheLastLetters) {
    EXPECT_EQ(vit::base64_encode(std::string("\xff\xfe\x00", 3)), "//4A");
    EXPECT_EQ(vit::base64_encode(std::string("\xfb\xef", 2)), "++8=");
}

TEST(Base64, DecodesWhatItEncodesAndRefusesTheRest) {
    for (const std::string& bytes : {std::string(""), std::string("f"), std::string("fo"), std::string("foo"),
                                     std::string("foobar"), std::string("\xff\xfe\x00\x80", 4)})
        EXPECT_EQ(vit::base64_decode(vit::base64_encode(bytes)), bytes);
    EXPECT_EQ(vit::base64_decode("Zm9vYmE="), "fooba");
    for (const char* bad : {"Zm9", "Zm9v!A==", "Z===", "====", "Zg=a", "=Zm9"})
        EXPECT_EQ(vit::base64_decode(bad), std::nullopt) << bad;
}

TEST(HalfFloat, ValuesWorkedOutByHand) {
    EXPECT_EQ(vit::to_half_bits(1.0f), 0x3c00);
    EXPECT_EQ(vit::to_half_bits(-2.0f), 0xc000);
    EXPECT_EQ(vit::to_half_bits(65504.0f), 0x7bff);
    EXPECT_EQ(vit::to_half_bits(std::ldexp(1.0f, -24)), 0x0001);             // smallest subnormal
    EXPECT_EQ(vit::to_half_bits(std::ldexp(1.0f, -26)), 0x0000);             // under half of it: zero
    EXPECT_EQ(vit::to_half_bits(1.0f + std::ldexp(1.0f, -11)), 0x3c00);      // a tie: to even
    EXPECT_EQ(vit::to_half_bits(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);  // a tie: to even, upwards
    EXPECT_EQ(vit::from_half_bits(0x3555), 1365.0f / 4096.0f);
}

TEST(HalfFloat, EveryFiniteHalfComesBackToItself) {
    for (uint32_t b = 0; b < 0x10000; ++b) {
        if ((b & 0x7c00) == 0x7c00) continue;  // inf and NaN
        if (b == 0x8000) continue;             // -0 is 0
        EXPECT_EQ(vit::to_half_bits(vit::from_half_bits(static_cast<uint16_t>(b))), b) << b;
    }
}

TEST(HalfFloat, RelativeErrorAtMostTwoToTheMinusEleven) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> mantissa(1.f, 2.f);
    std::uniform_int_distribution<int> exponent(-14, 15);
    for (int i = 0; i < 100000; ++i) {
        const float x = std::ldexp(mantissa(rng), exponent(rng));
        if (x > 65504.f) continue;
        const double h = vit::from_half_bits(vit::to_half_bits(x));
        EXPECT_LE(std::fabs(h - x), std::ldexp(std::fabs(static_cast<double>(x)), -11)) << x;
    }
}

TEST(HalfTokens, LayoutIsLayerHeadThenQKV) {
    const vit::Trace t = vit::testing::synthetic_trace();
    const std::string bytes = vit::half_qkv_bytes(t);
    using namespace vit::testing;
    ASSERT_EQ(bytes.size(), static_cast<size_t>(kLayers * kHeads * 3 * kTokens * kDim * 2));
    auto half_at = [&](int layer, int head, int which, int token, int d) {
        const size_t index =
            ((((static_cast<size_t>(layer) * kHeads + head) * 3 + which) * kTokens + token) * kDim + d);
        const uint16_t bits = static_cast<uint8_t>(bytes[2 * index]) | static_cast<uint8_t>(bytes[2 * index + 1]) << 8;
        return vit::from_half_bits(bits);
    };
    for (int layer = 0; layer < kLayers; ++layer)
        for (int head = 0; head < kHeads; ++head) {
            const vit::HeadTrace& h = t.layers[layer].heads[head];
            for (int token = 0; token < kTokens; ++token)
                for (int d = 0; d < kDim; ++d) {
                    EXPECT_NEAR(half_at(layer, head, 0, token, d), h.q(token, d),
                                std::fabs(h.q(token, d)) / 2048 + 1e-7);
                    EXPECT_NEAR(half_at(layer, head, 1, token, d), h.k(token, d),
                                std::fabs(h.k(token, d)) / 2048 + 1e-7);
                    EXPECT_NEAR(half_at(layer, head, 2, token, d), h.v(token, d),
                                std::fabs(h.v(token, d)) / 2048 + 1e-7);
                }
        }
}

TEST(HalfTokens, RefusesWhatHalfCannotHold) {
    vit::Trace t = vit::testing::synthetic_trace();
    t.layers[1].heads[0].k(2, 3) = 70000.f;
    try {
        vit::half_qkv_bytes(t);
        FAIL() << "a k of 70000 was accepted";
    } catch (const vit::Error& e) {
        EXPECT_NE(std::string(e.what()).find("k of layer 1 head 0"), std::string::npos) << e.what();
    }
    t = vit::testing::synthetic_trace();
    t.layers[0].heads[1].v(0, 0) = std::nanf("");
    EXPECT_THROW(vit::half_qkv_bytes(t), vit::Error);
}

}  // namespace
