// pytorch_model.bin (torch_checkpoint.h): values of every dtype, strides,
// storage offsets, shared storages and byte order read exactly; archives that
// are damaged or not what torch.save writes refused with one-line messages;
// and through load_model, a .bin model equals the same model in safetensors,
// with safetensors preferred when both are there and the memory budget applied.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "support/scratch_dir.h"
#include "support/synthetic_model.h"
#include "support/torch_zip.h"
#include "vit/base/error.h"
#include "vit/formats/checkpoint.h"
#include "vit/formats/torch_checkpoint.h"
#include "vit/model/model.h"

namespace vit {
namespace {

namespace fs = std::filesystem;
using testing::PickleWriter;
using testing::ScratchDir;

std::string f32_bytes(const std::vector<float>& v) { return testing::tensor_bytes(v, DType::F32); }

std::string read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

// The error opening `path`, or "" when it opened.
std::string refusal(const std::string& path) {
    try {
        TorchCheckpoint bin(path);
    } catch (const Error& e) {
        const std::string m = e.what();
        EXPECT_EQ(m.find('\n'), std::string::npos) << m;
        EXPECT_EQ(m.rfind(path + ": ", 0), 0u) << m;
        return m;
    }
    return "";
}

// {"w": a [2] float tensor over storage "0"} with the given storages.
std::string small_pickle(int64_t numel = 2) {
    PickleWriter p;
    p.proto().ordered_dict().op('(').str("w").tensor("FloatStorage", "0", numel, 0, {2}, {1}).op('u').stop();
    return p.bytes();
}

TEST(TorchCheckpoint, ReadsEveryFloatDtype) {
    ScratchDir dir("vitscope-torch");
    const std::vector<float> v{1.5f, -2.25f, 0.0f, 65504.0f, -3.0e-5f, 1.0f / 3.0f};
    std::string f64;
    for (float x : v) {
        const double d = x;
        f64.append(reinterpret_cast<const char*>(&d), 8);
    }
    PickleWriter p;
    p.proto().ordered_dict().op('(');
    p.str("f32").tensor("FloatStorage", "0", 6, 0, {2, 3}, {3, 1});
    p.str("f16").tensor("HalfStorage", "1", 6, 0, {6}, {1});
    p.str("bf16").tensor("BFloat16Storage", "2", 6, 0, {6}, {1});
    p.str("f64").tensor("DoubleStorage", "3", 6, 0, {6}, {1});
    p.str("steps").tensor("LongStorage", "4", 1, 0, {}, {});
    p.op('u').stop();
    testing::write_torch_archive(dir.file("m.bin"), p.bytes(),
                                 {{"0", f32_bytes(v)},
                                  {"1", testing::tensor_bytes(v, DType::F16)},
                                  {"2", testing::tensor_bytes(v, DType::BF16)},
                                  {"3", f64},
                                  {"4", std::string(8, '\7')}});
    const TorchCheckpoint bin(dir.file("m.bin"));
    EXPECT_EQ(bin.shapes().at("f32"), (std::vector<int64_t>{2, 3}));
    EXPECT_TRUE(bin.shapes().at("steps").empty());
    EXPECT_EQ(bin.to_f32("f32"), v);
    EXPECT_EQ(bin.to_f32("f64"), v);
    const std::vector<float> f16 = bin.to_f32("f16"), bf16 = bin.to_f32("bf16");
    for (size_t i = 0; i < v.size(); ++i) {
        EXPECT_EQ(f16[i], f16_to_f32(f32_to_f16(v[i]))) << i;
        EXPECT_EQ(bf16[i], bf16_to_f32(f32_to_bf16(v[i]))) << i;
    }
    try {
        bin.to_f32("steps");
        ADD_FAILURE() << "an int64 tensor converted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("tensor 'steps' holds int64 values"), std::string::npos) << e.what();
    }
    EXPECT_NE(bin.format().find("PyTorch zip checkpoint"), std::string::npos);
}

TEST(TorchCheckpoint, HonoursStridesOffsetsAndSharedStorages) {
    ScratchDir dir("vitscope-torch");
    std::vector<float> storage(12);
    for (int i = 0; i < 12; ++i) storage[i] = static_cast<float>(i);
    PickleWriter p;
    p.proto().ordered_dict().op('(');
    p.str("rows").tensor("FloatStorage", "0", 12, 6, {2, 3}, {3, 1});        // elements 6..11
    p.str("transposed").tensor("FloatStorage", "0", 12, 0, {3, 2}, {1, 3});  // [[0,3],[1,4],[2,5]]
    p.str("column").tensor("FloatStorage", "0", 12, 2, {4}, {3});            // 2, 5, 8, 11
    p.str("scalar").tensor("FloatStorage", "0", 12, 7, {}, {});              // 7
    p.str("expanded").tensor("FloatStorage", "0", 12, 1, {2, 3}, {0, 1});    // [[1,2,3],[1,2,3]]
    p.str("strided3d").tensor("FloatStorage", "0", 12, 0, {2, 2, 2}, {6, 1, 3});
    p.str("empty").tensor("FloatStorage", "0", 12, 12, {0, 5}, {5, 1});
    p.op('u').stop();
    testing::write_torch_archive(dir.file("m.bin"), p.bytes(), {{"0", f32_bytes(storage)}});
    const TorchCheckpoint bin(dir.file("m.bin"));
    EXPECT_EQ(bin.state_dict().storages.size(), 1u);
    EXPECT_EQ(bin.to_f32("rows"), (std::vector<float>{6, 7, 8, 9, 10, 11}));
    EXPECT_EQ(bin.to_f32("transposed"), (std::vector<float>{0, 3, 1, 4, 2, 5}));
    EXPECT_EQ(bin.to_f32("column"), (std::vector<float>{2, 5, 8, 11}));
    EXPECT_EQ(bin.to_f32("scalar"), (std::vector<float>{7}));
    EXPECT_EQ(bin.to_f32("expanded"), (std::vector<float>{1, 2, 3, 1, 2, 3}));
    EXPECT_EQ(bin.to_f32("strided3d"), (std::vector<float>{0, 3, 1, 4, 6, 9, 7, 10}));
    EXPECT_TRUE(bin.to_f32("empty").empty());
}

TEST(TorchCheckpoint, ReadsBigEndianArchivesAndTheNegBit) {
    ScratchDir dir("vitscope-torch");
    std::string swapped = f32_bytes({1.5f, -2.0f});
    for (size_t i = 0; i < swapped.size(); i += 4)
        std::swap(swapped[i], swapped[i + 3]), std::swap(swapped[i + 1], swapped[i + 2]);
    testing::write_torch_archive(dir.file("big.bin"), small_pickle(), {{"0", swapped}}, "archive", "big");
    EXPECT_EQ(TorchCheckpoint(dir.file("big.bin")).to_f32("w"), (std::vector<float>{1.5f, -2.0f}));
    EXPECT_NE(TorchCheckpoint(dir.file("big.bin")).format().find("big-endian"), std::string::npos);

    testing::write_torch_archive(dir.file("middle.bin"), small_pickle(), {{"0", swapped}}, "archive", "middle");
    EXPECT_NE(refusal(dir.file("middle.bin")).find("unknown byte order 'middle'"), std::string::npos);

    PickleWriter p;  // torch 2's {"neg": True} metadata
    p.proto().ordered_dict().op('(').str("w").global("torch._utils", "_rebuild_tensor_v2").op('(');
    p.op('(').str("storage").global("torch", "FloatStorage").str("0").str("cpu").integer(2).op('t').op('Q');
    p.integer(0).tuple_of({2}).tuple_of({1}).op(0x89).ordered_dict().op('}').str("neg").op(0x88).op('s');
    p.op('t').op('R').op('u').stop();
    testing::write_torch_archive(dir.file("neg.bin"), p.bytes(), {{"0", f32_bytes({1.5f, -2.0f})}});
    EXPECT_EQ(TorchCheckpoint(dir.file("neg.bin")).to_f32("w"), (std::vector<float>{-1.5f, 2.0f}));
}

TEST(TorchCheckpoint, RefusesMissingOrMismatchedStorages) {
    ScratchDir dir("vitscope-torch");
    testing::write_torch_archive(dir.file("missing.bin"), small_pickle(), {{"1", f32_bytes({1, 2})}});
    EXPECT_NE(refusal(dir.file("missing.bin"))
                  .find("tensor 'w' uses storage '0', but the archive has no entry archive/data/0"),
              std::string::npos)
        << refusal(dir.file("missing.bin"));

    testing::write_torch_archive(dir.file("short.bin"), small_pickle(), {{"0", f32_bytes({1})}});
    EXPECT_NE(
        refusal(dir.file("short.bin")).find("declared as 2 float32 elements (8 bytes) but its entry holds 4 bytes"),
        std::string::npos)
        << refusal(dir.file("short.bin"));

    testing::write_torch_archive(dir.file("long.bin"), small_pickle(), {{"0", f32_bytes({1, 2, 3})}});
    EXPECT_NE(refusal(dir.file("long.bin")).find("holds 12 bytes"), std::string::npos);

    // The storage is whole, but the tensor reads past its end.
    testing::write_torch_archive(dir.file("extent.bin"), small_pickle(1), {{"0", f32_bytes({1})}});
    EXPECT_NE(refusal(dir.file("extent.bin")).find("reads past the end of storage '0'"), std::string::npos);

    // A storage key holding a NUL must not match the shorter name "0".
    PickleWriter nul;
    nul.proto()
        .ordered_dict()
        .op('(')
        .str("w")
        .tensor("FloatStorage", std::string("0\0x", 3), 2, 0, {2}, {1})
        .op('u')
        .stop();
    testing::write_torch_archive(dir.file("nul.bin"), nul.bytes(), {{"0", f32_bytes({1, 2})}});
    EXPECT_NE(refusal(dir.file("nul.bin")).find("a storage key that is not a plain name ('0?x')"), std::string::npos)
        << refusal(dir.file("nul.bin"));
}

TEST(TorchCheckpoint, RefusesArchivesTorchSaveDoesNotWrite) {
    ScratchDir dir("vitscope-torch");
    const std::string pkl = small_pickle();
    const std::string data = f32_bytes({1, 2});
    testing::write_torch_archive(dir.file("ok.bin"), pkl, {{"0", data}});
    ASSERT_EQ(refusal(dir.file("ok.bin")), "");

    testing::write_zip(dir.file("flat.bin"), {{"data.pkl", pkl}, {"version", "3\n"}});
    EXPECT_NE(refusal(dir.file("flat.bin")).find("is not in a folder"), std::string::npos);
    testing::write_zip(dir.file("noversion.bin"), {{"a/data.pkl", pkl}, {"a/data/0", data}});
    EXPECT_NE(refusal(dir.file("noversion.bin")).find("no a/version record"), std::string::npos);
    testing::write_zip(dir.file("version99.bin"), {{"a/data.pkl", pkl}, {"a/data/0", data}, {"a/version", "99\n"}});
    EXPECT_NE(refusal(dir.file("version99.bin")).find("format version 99"), std::string::npos);
    testing::write_zip(dir.file("newversion.bin"),
                       {{"a/.data/version", "3\n"}, {"a/data.pkl", pkl}, {"a/data/0", data}});
    EXPECT_EQ(refusal(dir.file("newversion.bin")), "");
    testing::write_zip(dir.file("nopkl.bin"), {{"a/data/0", data}, {"a/version", "3\n"}});
    EXPECT_NE(refusal(dir.file("nopkl.bin")).find("no a/data.pkl"), std::string::npos);
    testing::write_zip(dir.file("script.bin"), {{"a/data.pkl", pkl}, {"a/constants.pkl", pkl}, {"a/version", "3\n"}});
    EXPECT_NE(refusal(dir.file("script.bin")).find("TorchScript"), std::string::npos);
    testing::write_zip(dir.file("deflated.bin"),
                       {{"a/data.pkl", pkl}, {"a/data/0", std::string(64, 'x')}, {"a/version", "3\n"}}, {"a/data/0"});
    EXPECT_NE(refusal(dir.file("deflated.bin")).find("archive entry a/data/0 is compressed"), std::string::npos)
        << refusal(dir.file("deflated.bin"));

    testing::write_bytes(dir.file("empty.bin"), "");
    EXPECT_NE(refusal(dir.file("empty.bin")).find("not a readable zip archive"), std::string::npos);
    testing::write_bytes(dir.file("legacy.bin"), std::string("\x80\x02\x8a\x0a", 4) + "(the magic number and more)");
    EXPECT_NE(refusal(dir.file("legacy.bin")).find("legacy torch.save file"), std::string::npos);
    EXPECT_NE(refusal(dir.str()).find("not a regular file"), std::string::npos);
    EXPECT_NE(refusal(dir.file("absent.bin")).find("cannot open"), std::string::npos);
}

TEST(TorchCheckpoint, RefusesEveryTruncationOfAnArchive) {
    ScratchDir dir("vitscope-torch");
    PickleWriter p;
    p.proto().ordered_dict().op('(');
    for (const std::string key : {"0", "1", "2"})
        p.str("tensor." + key).tensor("FloatStorage", key, 64, 0, {8, 8}, {8, 1});
    p.op('u').stop();
    std::vector<float> v(64, 0.5f);
    testing::write_torch_archive(dir.file("whole.bin"), p.bytes(),
                                 {{"0", f32_bytes(v)}, {"1", f32_bytes(v)}, {"2", f32_bytes(v)}});
    const std::string whole = read_bytes(dir.file("whole.bin"));
    ASSERT_EQ(refusal(dir.file("whole.bin")), "");
    for (size_t n = 0; n < whole.size(); n += 7) {
        testing::write_bytes(dir.file("cut.bin"), whole.substr(0, n));
        EXPECT_NE(refusal(dir.file("cut.bin")), "") << n << " of " << whole.size() << " bytes";
    }
}

TEST(TorchCheckpoint, ReadsRealTorchSaveFiles) {
    // fuzz/corpus/torch_bin/*.bin: written by torch.save (fuzz/make_torch_seeds.py tiny).
    const fs::path corpus = fs::path(VITSCOPE_SOURCE_DIR) / "fuzz" / "corpus" / "torch_bin";
    const TorchCheckpoint f32((corpus / "f32_with_metadata.bin").string());
    EXPECT_EQ(f32.to_f32("w"), (std::vector<float>{1.0f, -2.0f, 0.5f, 3.0f}));
    EXPECT_EQ(f32.to_f32("b"), (std::vector<float>{0.25f, -1.0f}));
    EXPECT_EQ(TorchCheckpoint((corpus / "f16_transposed.bin").string()).to_f32("w"),
              (std::vector<float>{1.0f, 0.5f, -2.0f, 3.0f}));
    const TorchCheckpoint shared((corpus / "bf16_shared_storage.bin").string());
    EXPECT_EQ(shared.to_f32("a"), (std::vector<float>{0, 1}));
    EXPECT_EQ(shared.to_f32("b"), (std::vector<float>{4, 5}));
    EXPECT_EQ(shared.to_f32("c"), (std::vector<float>{1, 3, 5}));
    EXPECT_EQ(TorchCheckpoint((corpus / "f64_and_int64.bin").string()).to_f32("w"),
              (std::vector<float>{1.0f, -2.0f, 0.5f, 3.0f}));
    EXPECT_EQ(TorchCheckpoint((corpus / "parameter.bin").string()).to_f32("w"),
              (std::vector<float>{1.0f, -2.0f, 0.5f, 3.0f}));
    EXPECT_EQ(TorchCheckpoint((corpus / "wrapped_state_dict.bin").string()).to_f32("w"),
              (std::vector<float>{1.0f, -2.0f, 0.5f, 3.0f}));
    EXPECT_EQ(TorchCheckpoint((corpus / "protocol4_scalar.bin").string()).to_f32("s"), (std::vector<float>{2.0f}));
}

TEST(TorchCheckpoint, LoadsEveryNamingSchemeAsItsSafetensorsTwin) {
    testing::SyntheticSpec spec;
    spec.dist_token = true;
    const Model m = testing::make_synthetic_model(spec);
    for (const std::string scheme : {"timm", "hf-deit"}) {
        for (DType dtype : {DType::F32, DType::F16, DType::BF16}) {
            ScratchDir st("vitscope-st"), bin("vitscope-bin");
            testing::write_checkpoint(m, st.str(), scheme, dtype);
            testing::write_torch_model(m, bin.str(), scheme, dtype);
            ASSERT_FALSE(fs::exists(bin.file("model.safetensors")));
            const Model from_st = load_model(st.str());
            const Model from_bin = load_model(bin.str());
            EXPECT_EQ(testing::first_difference(from_st, from_bin), "") << scheme;
            EXPECT_EQ(from_bin.scheme, from_st.scheme);
            EXPECT_EQ(from_bin.weights_file, bin.file("pytorch_model.bin"));
            EXPECT_NE(from_bin.weights_format.find("PyTorch zip checkpoint"), std::string::npos);
            EXPECT_EQ(from_st.weights_format, "safetensors");
        }
    }
}

TEST(TorchCheckpoint, SafetensorsIsPreferredWhenBothAreThere) {
    const Model m = testing::make_synthetic_model({});
    ScratchDir dir("vitscope-both");
    testing::write_checkpoint(m, dir.str(), "timm", DType::F32);
    testing::write_bytes(dir.file("pytorch_model.bin"), "not even a zip");
    EXPECT_EQ(load_model(dir.str()).weights_format, "safetensors");
    fs::remove(dir.file("model.safetensors"));
    try {
        load_model(dir.str());
        ADD_FAILURE() << "a broken pytorch_model.bin loaded";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(dir.file("pytorch_model.bin") + ": not a readable zip archive"),
                  std::string::npos)
            << e.what();
    }
    fs::remove(dir.file("pytorch_model.bin"));
    try {
        load_model(dir.str());
        ADD_FAILURE() << "a folder without weights loaded";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("not found, nor pytorch_model.bin"), std::string::npos) << e.what();
    }
}

TEST(TorchCheckpoint, MemoryBudgetAppliesBeforeConverting) {
    // A 4-byte storage expanded (stride 0) to 2^28 elements: 1 GiB as f32,
    // refused from the shapes alone under a 256 MB budget.
    testing::SyntheticSpec spec;
    const Model m = testing::make_synthetic_model(spec);
    ScratchDir dir("vitscope-budget");
    testing::write_torch_model(m, dir.str(), "timm", DType::F32);
    PickleWriter p;
    p.proto()
        .ordered_dict()
        .op('(')
        .str("huge")
        .tensor("FloatStorage", "0", 1, 0, {1 << 14, 1 << 14}, {0, 0})
        .op('u')
        .stop();
    testing::write_torch_archive(dir.file("pytorch_model.bin"), p.bytes(), {{"0", f32_bytes({1})}});
    ::setenv("VITSCOPE_MEMORY_BUDGET", "256M", 1);
    try {
        load_model(dir.str());
        ADD_FAILURE() << "1 GiB of expanded weights loaded under a 256 MB budget";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("over the memory budget"), std::string::npos) << e.what();
    }
    ::unsetenv("VITSCOPE_MEMORY_BUDGET");
}

}  // namespace
}  // namespace vit
