// The safetensors reader: round trips, half-float conversions, and one test
// per kind of corrupt file, each refused with a one-line message naming the cause.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

#include "support/scratch_dir.h"
#include "support/synthetic_model.h"
#include "vit/base/error.h"
#include "vit/formats/safetensors.h"

namespace vit {
namespace {

using testing::safetensors_bytes;
using testing::ScratchDir;
using testing::write_bytes;

// Opening `bytes` as a safetensors file must fail with a one-line message
// containing the file path and every string in `causes`.
void expect_refused(const std::string& bytes, const std::vector<std::string>& causes) {
    ScratchDir dir("st");
    const std::string path = dir.file("model.safetensors");
    write_bytes(path, bytes);
    try {
        SafeTensors st(path);
        FAIL() << "opened a corrupt file";
    } catch (const Error& e) {
        const std::string msg = e.what();
        EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
        EXPECT_NE(msg.find(path), std::string::npos) << msg;
        for (const std::string& c : causes)
            EXPECT_NE(msg.find(c), std::string::npos) << "'" << c << "' not in: " << msg;
    }
}

std::string f32_bytes(std::initializer_list<float> v) {
    std::string s(v.size() * 4, '\0');
    std::memcpy(s.data(), std::data(v), s.size());
    return s;
}

TEST(SafeTensorsTest, RoundTripsEveryDtype) {
    ScratchDir dir("st");
    const std::vector<float> v = {0.0f, 1.0f, -2.5f, 0.333f, 1000.0f, -1e-3f};
    write_safetensors(dir.file("a.safetensors"), {{"f32", DType::F32, {2, 3}, v},
                                                  {"f16", DType::F16, {3, 2}, v},
                                                  {"bf16", DType::BF16, {6}, v},
                                                  {"empty", DType::F32, {0, 4}, {}}});
    SafeTensors st(dir.file("a.safetensors"));
    ASSERT_EQ(st.tensors().size(), 4u);
    EXPECT_EQ(st.info("f32").shape, (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(st.info("f16").dtype, DType::F16);
    EXPECT_EQ(st.info("bf16").nbytes, 12u);
    EXPECT_EQ(st.info("empty").numel(), 0);
    EXPECT_EQ(st.to_f32("f32"), v);
    const std::vector<float> h = st.to_f32("f16"), b = st.to_f32("bf16", {6});
    for (size_t i = 0; i < v.size(); ++i) {
        EXPECT_NEAR(h[i], v[i], std::fabs(v[i]) * 1e-3f) << i;
        EXPECT_NEAR(b[i], v[i], std::fabs(v[i]) * 8e-3f) << i;
    }
    EXPECT_TRUE(st.to_f32("empty").empty());
    EXPECT_FALSE(std::filesystem::exists(dir.file("a.safetensors.tmp")));
}

TEST(SafeTensorsTest, KeepsMetadataAsStrings) {
    const std::string header =
        R"({"__metadata__":{"format":"pt","n":3},"x":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})";
    ScratchDir dir("st");
    write_bytes(dir.file("m.safetensors"), safetensors_bytes(header, f32_bytes({1.5f})));
    SafeTensors st(dir.file("m.safetensors"));
    EXPECT_EQ(st.metadata().at("format"), "pt");
    EXPECT_EQ(st.metadata().at("n"), "3");
    EXPECT_EQ(st.to_f32("x"), std::vector<float>{1.5f});
    EXPECT_FALSE(st.has("__metadata__"));
}

TEST(SafeTensorsTest, HalfFloatConversionsAreExact) {
    EXPECT_EQ(f32_to_f16(1.0f), 0x3C00);
    EXPECT_EQ(f32_to_f16(-2.0f), 0xC000);
    EXPECT_EQ(f32_to_f16(65504.0f), 0x7BFF);
    EXPECT_EQ(f32_to_f16(1e6f), 0x7C00);
    EXPECT_EQ(f32_to_f16(5.9604645e-8f), 0x0001);       // smallest subnormal
    EXPECT_EQ(f32_to_f16(1.0f + 1.0f / 2048), 0x3C00);  // tie rounds to even
    EXPECT_EQ(f32_to_f16(1.0f + 3.0f / 2048), 0x3C02);
    EXPECT_TRUE(std::isnan(f16_to_f32(f32_to_f16(std::nanf("")))));
    EXPECT_EQ(f16_to_f32(0x7C00), std::numeric_limits<float>::infinity());
    EXPECT_EQ(f16_to_f32(0x0001), 5.9604645e-8f);
    EXPECT_EQ(f16_to_f32(0x8000), -0.0f);
    // Every finite half survives the round trip.
    for (uint32_t h = 0; h < 0x10000; ++h)
        if ((h & 0x7C00) != 0x7C00) {
            ASSERT_EQ(f32_to_f16(f16_to_f32(static_cast<uint16_t>(h))), h) << h;
        }

    EXPECT_EQ(f32_to_bf16(1.0f), 0x3F80);
    EXPECT_EQ(bf16_to_f32(0x3F80), 1.0f);
    EXPECT_EQ(f32_to_bf16(1.0f + 1.0f / 256), 0x3F80);  // tie to even
    EXPECT_EQ(f32_to_bf16(1.0f + 3.0f / 256), 0x3F82);
    EXPECT_TRUE(std::isnan(bf16_to_f32(f32_to_bf16(std::nanf("")))));
}

TEST(SafeTensorsTest, ToF32ChecksTheExpectedShape) {
    ScratchDir dir("st");
    write_safetensors(dir.file("a.safetensors"), {{"w", DType::F32, {2, 2}, {1, 2, 3, 4}}});
    SafeTensors st(dir.file("a.safetensors"));
    EXPECT_EQ(st.to_f32("w", {4}).size(), 4u);
    EXPECT_THROW(st.to_f32("w", {3}), Error);
    EXPECT_THROW(st.to_f32("missing"), Error);
    EXPECT_THROW(st.info("missing"), Error);
}

TEST(SafeTensorsTest, WriteRefusesMismatchedValues) {
    ScratchDir dir("st");
    EXPECT_THROW(write_safetensors(dir.file("a.safetensors"), {{"w", DType::F32, {2, 2}, {1, 2, 3}}}), Error);
    EXPECT_FALSE(std::filesystem::exists(dir.file("a.safetensors")));
}

TEST(SafeTensorsTest, RejectsMissingFile) {
    ScratchDir dir("st");
    try {
        SafeTensors st(dir.file("nope.safetensors"));
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("nope.safetensors: cannot open"), std::string::npos) << e.what();
    }
}

TEST(SafeTensorsTest, RejectsEmptyFile) { expect_refused("", {"0 bytes", "too short"}); }

TEST(SafeTensorsTest, RejectsHeaderLengthBeyondFile) {
    expect_refused(safetensors_bytes("{}", "", 5000), {"header length 5000", "past the end of the file"});
}

TEST(SafeTensorsTest, RejectsAbsurdHeaderLength) {
    expect_refused(safetensors_bytes("{}", "", int64_t{1} << 40), {"over the 100 MB limit"});
}

TEST(SafeTensorsTest, RejectsBadJsonHeader) {
    expect_refused(safetensors_bytes("{\"x\": [1,\n", ""), {"header: not valid JSON"});
}

TEST(SafeTensorsTest, RejectsNonObjectHeader) {
    expect_refused(safetensors_bytes("[1, 2]", ""), {"not a JSON object"});
}

TEST(SafeTensorsTest, RejectsUnknownDtype) {
    const std::string header = R"({"ids":{"dtype":"I64","shape":[1],"data_offsets":[0,8]}})";
    expect_refused(safetensors_bytes(header, std::string(8, '\0')), {"'ids'", "dtype I64"});
}

TEST(SafeTensorsTest, RejectsNegativeShape) {
    const std::string header = R"({"w":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})";
    expect_refused(safetensors_bytes(header, f32_bytes({1})), {"'w'", "shape"});
}

TEST(SafeTensorsTest, RejectsShapeNotMatchingOffsets) {
    const std::string header = R"({"w":{"dtype":"F16","shape":[3],"data_offsets":[0,4]}})";
    expect_refused(safetensors_bytes(header, f32_bytes({1})), {"'w'", "6 bytes", "span 4 bytes"});
}

TEST(SafeTensorsTest, RejectsTruncatedFile) {
    // The header promises 16 bytes of data; the file stops after 4.
    const std::string header = R"({"w":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})";
    expect_refused(safetensors_bytes(header, f32_bytes({1})), {"'w'", "[0, 16)", "outside the data section (4 bytes"});
}

TEST(SafeTensorsTest, RejectsTensorOutOfBounds) {
    const std::string header = R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[96,100]}})";
    expect_refused(safetensors_bytes(header, f32_bytes({1, 2})), {"'w'", "[96, 100)", "outside"});
}

TEST(SafeTensorsTest, RejectsOffsetsEndingBeforeTheyBegin) {
    const std::string header = R"({"w":{"dtype":"F32","shape":[0],"data_offsets":[8,4]}})";
    expect_refused(safetensors_bytes(header, f32_bytes({1, 2, 3})), {"'w'", "end before they begin"});
}

TEST(SafeTensorsTest, RejectsOverlappingTensors) {
    const std::string header = R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                               R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})";
    expect_refused(safetensors_bytes(header, f32_bytes({1, 2, 3})), {"'a'", "'b'", "overlap"});
}

TEST(SafeTensorsTest, RejectsMissingFields) {
    expect_refused(safetensors_bytes(R"({"w":{"dtype":"F32","shape":[1]}})", f32_bytes({1})), {"'w'", "data_offsets"});
    expect_refused(safetensors_bytes(R"({"w":{"shape":[1],"data_offsets":[0,4]}})", f32_bytes({1})), {"'w'", "dtype"});
}

}  // namespace
}  // namespace vit
