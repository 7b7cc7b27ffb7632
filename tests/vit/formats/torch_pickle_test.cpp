// The restricted pickle interpreter of torch_pickle.h on hand-written pickles
// (tests/support/torch_zip.h's PickleWriter) and on the data.pkl of real
// torch.save files (fuzz/corpus/torch_bin/, made by fuzz/make_torch_seeds.py):
// what a state dict holds is read exactly, and everything else (other globals,
// truncation, memo misuse, storages too short, absurd sizes) is refused with a
// one-line vit::Error that names it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "support/torch_zip.h"
#include "vit/base/error.h"
#include "vit/formats/torch_pickle.h"

namespace vit {
namespace {

using testing::PickleWriter;

TorchStateDict parse(const std::string& bytes) {
    return parse_torch_pickle(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), "model.bin");
}

// The error message, or "" when the pickle was accepted.
std::string pickle_refusal(const std::string& bytes) {
    try {
        parse(bytes);
    } catch (const Error& e) {
        const std::string m = e.what();
        EXPECT_EQ(m.find('\n'), std::string::npos) << m;
        EXPECT_EQ(m.rfind("model.bin: data.pkl: ", 0), 0u) << m;
        return m;
    }
    return "";
}

// {name: tensor} as torch writes it: OrderedDict() + MARK + pairs + SETITEMS.
PickleWriter& one_tensor(PickleWriter& p, const std::string& name, int64_t numel, int64_t offset,
                         const std::vector<int64_t>& size, const std::vector<int64_t>& stride,
                         const std::string& type = "FloatStorage") {
    return p.proto().ordered_dict().op('(').str(name).tensor(type, "0", numel, offset, size, stride).op('u');
}

std::string one_tensor_pickle(int64_t numel, int64_t offset, const std::vector<int64_t>& size,
                              const std::vector<int64_t>& stride) {
    PickleWriter p;
    return one_tensor(p, "w", numel, offset, size, stride).stop().bytes();
}

std::string read_corpus(const std::string& name) {
    std::ifstream in(std::filesystem::path(VITSCOPE_SOURCE_DIR) / "fuzz" / "corpus" / "torch_bin" / name,
                     std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

TEST(TorchPickle, ReadsAStateDictWithSharedStoragesAndMetadata) {
    // Two views of storage "0" (a 2x3 and its transpose), one F16 tensor, and
    // the _metadata attribute torch's state_dict() sets (BUILD on the dict).
    PickleWriter p;
    p.proto().ordered_dict().put(0).op('(');
    p.str("a").tensor("FloatStorage", "0", 6, 0, {2, 3}, {3, 1});
    p.str("b").tensor("FloatStorage", "0", 6, 0, {3, 2}, {1, 3});
    p.str("c").tensor("HalfStorage", "1", 4, 1, {3}, {1});
    p.op('u').op('}').str("_metadata").ordered_dict().str("").op('}').str("version").integer(1).op('s').op('s').op('s');
    p.op('b').stop();
    const TorchStateDict sd = parse(p.bytes());
    ASSERT_EQ(sd.tensors.size(), 3u);
    ASSERT_EQ(sd.storages.size(), 2u);
    const TorchTensor& a = sd.tensors.at("a");
    const TorchTensor& b = sd.tensors.at("b");
    const TorchTensor& c = sd.tensors.at("c");
    EXPECT_EQ(a.shape, (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(b.stride, (std::vector<int64_t>{1, 3}));
    EXPECT_EQ(a.storage, b.storage);
    EXPECT_NE(a.storage, c.storage);
    EXPECT_EQ(sd.storages[a.storage].key, "0");
    EXPECT_EQ(sd.storages[a.storage].dtype, TorchDType::F32);
    EXPECT_EQ(sd.storages[a.storage].numel, 6u);
    EXPECT_EQ(sd.storages[c.storage].dtype, TorchDType::F16);
    EXPECT_EQ(c.offset, 1u);
    EXPECT_EQ(c.last_element(), 3u);
    EXPECT_FALSE(a.negated);
}

TEST(TorchPickle, ReadsTheDataPklOfRealTorchSaveFiles) {
    // Written by torch.save (fuzz/make_torch_seeds.py tiny): protocol 2 and 4.
    const TorchStateDict f16 = parse(read_corpus("f16_transposed.pkl"));
    ASSERT_EQ(f16.tensors.count("w"), 1u);
    EXPECT_EQ(f16.tensors.at("w").stride, (std::vector<int64_t>{1, 2}));
    EXPECT_EQ(f16.storages[0].dtype, TorchDType::F16);

    const TorchStateDict shared = parse(read_corpus("bf16_shared_storage.pkl"));
    ASSERT_EQ(shared.tensors.size(), 3u);
    EXPECT_EQ(shared.storages.size(), 1u);
    EXPECT_EQ(shared.tensors.at("b").offset, 4u);
    EXPECT_EQ(shared.tensors.at("c").offset, 1u);
    EXPECT_EQ(shared.tensors.at("c").stride, (std::vector<int64_t>{2}));

    const TorchStateDict p4 = parse(read_corpus("protocol4_scalar.pkl"));
    EXPECT_TRUE(p4.tensors.at("s").shape.empty());
    EXPECT_EQ(p4.tensors.at("s").numel(), 1u);

    EXPECT_EQ(parse(read_corpus("parameter.pkl")).tensors.count("w"), 1u);
    EXPECT_EQ(parse(read_corpus("wrapped_state_dict.pkl")).tensors.count("w"), 1u);
    const TorchStateDict mixed = parse(read_corpus("f64_and_int64.pkl"));
    EXPECT_EQ(mixed.storages[mixed.tensors.at("w").storage].dtype, TorchDType::F64);
    EXPECT_EQ(mixed.storages[mixed.tensors.at("steps").storage].dtype, TorchDType::I64);
    EXPECT_EQ(parse(read_corpus("f32_with_metadata.pkl")).tensors.size(), 2u);
}

TEST(TorchPickle, RefusesEveryOtherGlobalNamingIt) {
    // The globals a malicious checkpoint calls; each refused on sight, never looked up.
    for (const auto& [module, name] :
         std::vector<std::pair<std::string, std::string>>{{"os", "system"},
                                                          {"posix", "system"},
                                                          {"builtins", "eval"},
                                                          {"__builtin__", "getattr"},
                                                          {"torch", "load"},
                                                          {"torch._tensor", "_rebuild_from_type_v2"},
                                                          {"collections", "Counter"}}) {
        PickleWriter p;
        p.proto().global(module, name).str("touch /tmp/vitscope-pwned").op(0x85).op('R').stop();
        const std::string m = pickle_refusal(p.bytes());
        EXPECT_NE(m.find("refused the global " + module + "." + name), std::string::npos) << m;
    }
    // The same through protocol 4's STACK_GLOBAL.
    PickleWriter p4;
    p4.proto(4)
        .raw(
            "\x8c\x08"
            "builtins")
        .raw(
            "\x8c\x04"
            "exec")
        .op(0x93)
        .stop();
    EXPECT_NE(pickle_refusal(p4.bytes()).find("builtins.exec"), std::string::npos);
    // Control characters in a name stay out of the one-line message.
    PickleWriter ctl;
    ctl.proto().global("os\r", "sys\ttem").stop();
    EXPECT_NE(pickle_refusal(ctl.bytes()).find("os?.sys?tem"), std::string::npos);
}

TEST(TorchPickle, RefusesAllowedGlobalsUsedOtherwise) {
    PickleWriter call_storage;  // calling a storage class would allocate in torch
    call_storage.proto().global("torch", "FloatStorage").integer(1000).op(0x85).op('R').stop();
    EXPECT_NE(pickle_refusal(call_storage.bytes()).find("torch.FloatStorage"), std::string::npos);

    PickleWriter od_args;  // OrderedDict(something)
    od_args.proto().global("collections", "OrderedDict").op(']').op(0x85).op('R').stop();
    EXPECT_NE(pickle_refusal(od_args.bytes()).find("OrderedDict called with arguments"), std::string::npos);

    PickleWriter call_string;  // REDUCE on a value that is not a global
    call_string.proto().str("x").op(')').op('R').stop();
    EXPECT_NE(pickle_refusal(call_string.bytes()).find("REDUCE calls a string"), std::string::npos);

    PickleWriter other_pid;  // torch.load only knows ('storage', ...) ids
    other_pid.proto().op('(').str("module").str("x").op('t').op('Q').stop();
    EXPECT_NE(pickle_refusal(other_pid.bytes()).find("persistent id"), std::string::npos);

    PickleWriter build_tensor;  // BUILD (setstate) of anything but a dict
    one_tensor(build_tensor, "w", 4, 0, {4}, {1});
    build_tensor.str("w").op('b').stop();
    EXPECT_NE(pickle_refusal(build_tensor.bytes()).find("BUILD of a dict from a string"), std::string::npos)
        << pickle_refusal(build_tensor.bytes());
}

TEST(TorchPickle, RefusesOpcodesAStateDictDoesNotUse) {
    // INST, OBJ, NEWOBJ, EXT1, text PERSID, PUT: each could build or look up objects.
    for (const std::string& op : {std::string("ios\nsystem\n"), std::string("o"), std::string("\x81"),
                                  std::string("\x82\x01"), std::string("P0\n"), std::string("p0\n")}) {
        PickleWriter p;
        p.proto().op('(').raw(op).stop();
        EXPECT_NE(pickle_refusal(p.bytes()).find("is not one a state dict uses"), std::string::npos)
            << pickle_refusal(p.bytes());
    }
}

TEST(TorchPickle, RefusesEveryTruncationOfAValidPickle) {
    PickleWriter p;
    one_tensor(p, "blocks.0.attn.qkv.weight", 300, 0, {3, 100}, {100, 1});
    p.stop();
    const std::string whole = p.bytes();
    ASSERT_EQ(pickle_refusal(whole), "");
    for (size_t n = 0; n < whole.size(); ++n)
        EXPECT_NE(pickle_refusal(whole.substr(0, n)), "") << "prefix of " << n << " bytes";
    EXPECT_NE(pickle_refusal(whole.substr(0, whole.size() - 1)).find("truncated"), std::string::npos);
}

TEST(TorchPickle, RefusesMemoMisuseAndStackUnderflow) {
    PickleWriter get;
    get.proto().op('}').put(0).get(7).stop();
    EXPECT_NE(pickle_refusal(get.bytes()).find("memo index 7 is read before it is set"), std::string::npos);
    PickleWriter long_get;
    long_get.proto().op('}').raw("j\xff\xff\xff\xff").stop();
    EXPECT_NE(pickle_refusal(long_get.bytes()).find("memo index 4294967295"), std::string::npos);
    PickleWriter put_empty;  // BINPUT with nothing on the stack
    put_empty.proto().put(0).stop();
    EXPECT_NE(pickle_refusal(put_empty.bytes()).find("stack underflow"), std::string::npos);
    PickleWriter below_mark;  // a MARK starts a fresh stack
    below_mark.proto().op('}').op('(').op('s').stop();
    EXPECT_NE(pickle_refusal(below_mark.bytes()).find("stack underflow"), std::string::npos);
    PickleWriter setitem_list;
    setitem_list.proto().op(']').str("k").str("v").op('s').stop();
    EXPECT_NE(pickle_refusal(setitem_list.bytes()).find("SETITEM on a list"), std::string::npos);
    PickleWriter unclosed;
    unclosed.proto().op('}').op('(').stop();
    EXPECT_NE(pickle_refusal(unclosed.bytes()).find("unclosed MARK"), std::string::npos);
}

TEST(TorchPickle, RefusesAbsurdLengthsBeforeAllocating) {
    PickleWriter huge_string;  // BINUNICODE of 4 GB in a 20-byte pickle
    huge_string.proto()
        .raw(
            "X\xff\xff\xff\xff"
            "abc")
        .stop();
    EXPECT_NE(pickle_refusal(huge_string.bytes()).find("truncated"), std::string::npos);
    PickleWriter huge_string8;
    huge_string8.proto(4).raw("\x8d\xff\xff\xff\xff\xff\xff\xff\x7f").stop();
    EXPECT_NE(pickle_refusal(huge_string8.bytes()).find("truncated"), std::string::npos);
    PickleWriter huge_frame;
    huge_frame.proto(4).raw("\x95\x00\x00\x00\x00\x00\x01\x00\x00").op('}').stop();
    EXPECT_NE(pickle_refusal(huge_frame.bytes()).find("truncated"), std::string::npos);

    std::string marks = "\x80\x02" + std::string(70000, '(');  // deeper than any state dict
    EXPECT_NE(pickle_refusal(marks).find("nested MARKs"), std::string::npos);
    std::string nones = "\x80\x02" + std::string(1200000, 'N');
    EXPECT_NE(pickle_refusal(nones).find("stack grows past"), std::string::npos);

    // A storage whose byte size does not fit in 64 bits.
    PickleWriter big_storage;
    one_tensor(big_storage, "w", int64_t{1} << 62, 0, {1}, {1}).stop();
    EXPECT_NE(pickle_refusal(big_storage.bytes()).find("impossible size"), std::string::npos);
}

TEST(TorchPickle, ReadsAndBoundsIntegers) {
    // LONG1 carries offsets and sizes over 2^31; 9 bytes with a sign byte is still 64-bit.
    PickleWriter p;
    p.proto().ordered_dict().op('(').str("w").global("torch._utils", "_rebuild_tensor_v2").op('(');
    p.op('(').str("storage").global("torch", "FloatStorage").str("0").str("cpu");
    p.raw(std::string("\x8a\x09\x00\x00\x00\x00\x01\x00\x00\x00\x00", 11)).op('t').op('Q');  // 2^32 elements
    p.raw(std::string("\x8a\x05\xff\xff\xff\xff\x00", 7));                                   // offset 2^32 - 1
    p.tuple_of({1}).tuple_of({1}).op(0x89).ordered_dict().op('t').op('R').op('u').stop();
    const TorchStateDict sd = parse(p.bytes());
    EXPECT_EQ(sd.storages.at(0).numel, uint64_t{1} << 32);
    EXPECT_EQ(sd.tensors.at("w").offset, (uint64_t{1} << 32) - 1);

    PickleWriter too_big;  // 2^64: over 64 bits
    too_big.proto().raw(std::string("\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x00\x01", 11)).stop();
    EXPECT_NE(pickle_refusal(too_big.bytes()).find("over 64 bits"), std::string::npos);
    PickleWriter negative;  // a negative offset
    one_tensor(negative, "w", 4, -1, {1}, {1}).stop();
    EXPECT_NE(pickle_refusal(negative.bytes()).find("storage offset is not a size"), std::string::npos);
}

TEST(TorchPickle, RefusesAStorageShorterThanItsTensor) {
    EXPECT_EQ(pickle_refusal(one_tensor_pickle(5, 0, {5}, {1})), "");
    const std::string m = pickle_refusal(one_tensor_pickle(4, 0, {5}, {1}));
    EXPECT_NE(m.find("tensor 'w'"), std::string::npos) << m;
    EXPECT_NE(m.find("reads past the end of storage '0', which holds 4 elements"), std::string::npos) << m;
    // With strides and an offset: [2, 3] over stride (4, 1) from 1 reads up to element 1 + 4 + 2 = 7.
    EXPECT_EQ(pickle_refusal(one_tensor_pickle(8, 1, {2, 3}, {4, 1})), "");
    EXPECT_NE(pickle_refusal(one_tensor_pickle(7, 1, {2, 3}, {4, 1})), "");
    // An empty tensor reads nothing, wherever it points.
    EXPECT_EQ(pickle_refusal(one_tensor_pickle(0, 0, {0, 3}, {3, 1})), "");
    // Strides that overflow 64 bits.
    EXPECT_NE(pickle_refusal(one_tensor_pickle(4, 0, {3, 2}, {INT64_MAX, 1})).find("reads past the end"),
              std::string::npos);
    // Sizes whose product overflows.
    EXPECT_NE(pickle_refusal(one_tensor_pickle(4, 0, {INT64_MAX, INT64_MAX}, {0, 0})).find("impossibly large"),
              std::string::npos);
    // Size and stride of different lengths.
    EXPECT_NE(pickle_refusal(one_tensor_pickle(4, 0, {2, 2}, {1})).find("differ in length"), std::string::npos);
}

TEST(TorchPickle, RefusesAStorageDeclaredTwiceDifferently) {
    PickleWriter p;
    p.proto().ordered_dict().op('(');
    p.str("a").tensor("FloatStorage", "0", 6, 0, {6}, {1});
    p.str("b").tensor("HalfStorage", "0", 6, 0, {6}, {1});
    p.op('u').stop();
    EXPECT_NE(pickle_refusal(p.bytes()).find("storage '0' is declared twice"), std::string::npos);
}

TEST(TorchPickle, FindsTheStateDictInsideATrainingCheckpoint) {
    PickleWriter p;  // {"epoch": 3, "model": {"w": tensor}}
    p.proto().op('}').op('(').str("epoch").integer(3).str("model").op('}').str("w");
    p.tensor("FloatStorage", "0", 4, 0, {4}, {1}).op('s').op('u').stop();
    EXPECT_EQ(parse(p.bytes()).tensors.count("w"), 1u);

    PickleWriter loose;  // a state dict with something that is not a tensor
    loose.proto()
        .op('}')
        .op('(')
        .str("w")
        .tensor("FloatStorage", "0", 4, 0, {4}, {1})
        .str("n")
        .integer(3)
        .op('u')
        .stop();
    EXPECT_NE(pickle_refusal(loose.bytes()).find("entry 'n' of the state dict is an int, not a tensor"),
              std::string::npos);

    PickleWriter newline;  // a name that would split the one-line error messages that quote it
    newline.proto().op('}').str("w\nx").tensor("FloatStorage", "0", 4, 0, {4}, {1}).op('s').stop();
    EXPECT_NE(pickle_refusal(newline.bytes()).find("tensor name 'w?x' holds control characters"), std::string::npos);

    PickleWriter list;
    list.proto().op(']').stop();
    EXPECT_NE(pickle_refusal(list.bytes()).find("holds a list, not a state dict"), std::string::npos);
}

TEST(TorchPickle, ReadsTorch2MetadataAndParameters) {
    // _rebuild_tensor_v2 with torch 2's 7th argument {"neg": True}: the values are negated.
    PickleWriter p;
    p.proto().ordered_dict().op('(').str("w").global("torch._utils", "_rebuild_tensor_v2").op('(');
    p.op('(').str("storage").global("torch", "FloatStorage").str("0").str("cpu").integer(4).op('t').op('Q');
    p.integer(0).tuple_of({4}).tuple_of({1}).op(0x89).ordered_dict();
    p.op('}').str("neg").op(0x88).op('s').op('t').op('R').op('u').stop();
    EXPECT_TRUE(parse(p.bytes()).tensors.at("w").negated);

    PickleWriter other;  // metadata torch does not write
    other.proto().ordered_dict().op('(').str("w").global("torch._utils", "_rebuild_tensor_v2").op('(');
    other.op('(').str("storage").global("torch", "FloatStorage").str("0").str("cpu").integer(4).op('t').op('Q');
    other.integer(0).tuple_of({4}).tuple_of({1}).op(0x89).ordered_dict();
    other.op('}').str("python_code").str("x").op('s').op('t').op('R').op('u').stop();
    EXPECT_NE(pickle_refusal(other.bytes()).find("metadata other than"), std::string::npos);
}

}  // namespace
}  // namespace vit
