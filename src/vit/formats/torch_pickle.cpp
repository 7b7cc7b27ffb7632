// A restricted pickle interpreter for torch.save's data.pkl. It follows
// CPython's Lib/pickle.py for the opcodes it knows and torch's
// serialization.py (persistent_load) and _utils.py (_rebuild_tensor_v2) for
// what the globals mean, but builds only inert values: a "global" is a tag
// from a fixed table, calling one builds a dict or a tensor description.
// Every size read from the file is checked before anything is allocated.
#include "vit/formats/torch_pickle.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <unordered_map>

#include "vit/base/error.h"
#include "vit/base/shape_string.h"

namespace vit {

size_t torch_dtype_size(TorchDType d) {
    switch (d) {
        case TorchDType::F64:
        case TorchDType::I64: return 8;
        case TorchDType::F32:
        case TorchDType::I32: return 4;
        case TorchDType::F16:
        case TorchDType::BF16:
        case TorchDType::I16: return 2;
        case TorchDType::I8:
        case TorchDType::U8:
        case TorchDType::Bool: return 1;
    }
    return 1;
}

const char* torch_dtype_name(TorchDType d) {
    switch (d) {
        case TorchDType::F64: return "float64";
        case TorchDType::F32: return "float32";
        case TorchDType::F16: return "float16";
        case TorchDType::BF16: return "bfloat16";
        case TorchDType::I64: return "int64";
        case TorchDType::I32: return "int32";
        case TorchDType::I16: return "int16";
        case TorchDType::I8: return "int8";
        case TorchDType::U8: return "uint8";
        case TorchDType::Bool: return "bool";
    }
    return "?";
}

bool torch_dtype_is_float(TorchDType d) {
    return d == TorchDType::F64 || d == TorchDType::F32 || d == TorchDType::F16 || d == TorchDType::BF16;
}

std::string cut_printable(const std::string& s) {
    std::string out;
    for (unsigned char c : s.substr(0, 200)) out += (c < 0x20 || c == 0x7f) ? '?' : static_cast<char>(c);
    return s.size() > 200 ? out + "..." : out;
}

uint64_t TorchTensor::numel() const {
    uint64_t n = 1;
    for (int64_t d : shape) n *= static_cast<uint64_t>(d);  // bounded when parsed
    return n;
}

uint64_t TorchTensor::last_element() const {
    uint64_t last = offset;
    for (size_t k = 0; k < shape.size(); ++k)
        last += static_cast<uint64_t>(shape[k] - 1) * static_cast<uint64_t>(stride[k]);  // bounded when parsed
    return last;
}

namespace {

// Limits far above any state dict (a ViT-g has under 1000 tensors, about 20
// objects each) and far below what would exhaust memory.
constexpr size_t kMaxObjects = size_t{1} << 21;
constexpr size_t kMaxItems = size_t{1} << 24;  // elements of all tuples, lists and dicts together
constexpr size_t kMaxStack = size_t{1} << 20;
constexpr size_t kMaxMarks = size_t{1} << 16;
constexpr size_t kMaxMemo = size_t{1} << 21;
constexpr size_t kMaxDims = 64;
constexpr uint64_t kMaxElements = uint64_t{1} << 60;  // so that elements * 8 bytes fits in 64 bits

enum class Kind : uint8_t { None, Bool, Int, Float, Str, Tuple, List, Dict, Global, Storage, Tensor };

enum class GlobalKind : uint8_t { OrderedDict, RebuildTensorV2, RebuildTensor, RebuildParameter, StorageType };

struct AllowedGlobal {
    const char* module;
    const char* name;
    GlobalKind kind;
    TorchDType dtype;  // for StorageType
};

// Everything a state dict written by torch.save (1.6 and later) refers to.
constexpr AllowedGlobal kAllowed[] = {
    {"collections", "OrderedDict", GlobalKind::OrderedDict, TorchDType::F32},
    {"torch._utils", "_rebuild_tensor_v2", GlobalKind::RebuildTensorV2, TorchDType::F32},
    {"torch._utils", "_rebuild_tensor", GlobalKind::RebuildTensor, TorchDType::F32},
    {"torch._utils", "_rebuild_parameter", GlobalKind::RebuildParameter, TorchDType::F32},
    {"torch", "DoubleStorage", GlobalKind::StorageType, TorchDType::F64},
    {"torch", "FloatStorage", GlobalKind::StorageType, TorchDType::F32},
    {"torch", "HalfStorage", GlobalKind::StorageType, TorchDType::F16},
    {"torch", "BFloat16Storage", GlobalKind::StorageType, TorchDType::BF16},
    {"torch", "LongStorage", GlobalKind::StorageType, TorchDType::I64},
    {"torch", "IntStorage", GlobalKind::StorageType, TorchDType::I32},
    {"torch", "ShortStorage", GlobalKind::StorageType, TorchDType::I16},
    {"torch", "CharStorage", GlobalKind::StorageType, TorchDType::I8},
    {"torch", "ByteStorage", GlobalKind::StorageType, TorchDType::U8},
    {"torch", "BoolStorage", GlobalKind::StorageType, TorchDType::Bool},
};

struct Object {
    Kind kind = Kind::None;
    uint8_t global = 0;           // Global: index into kAllowed
    int64_t number = 0;           // Bool, Int; Storage, Tensor: index into storages / tensors
    std::string text;             // Str
    std::vector<uint32_t> items;  // Tuple, List; Dict: key, value, key, value, ... in order
};

// A tensor as built, before it has a name; checked against its storage when named.
struct RawTensor {
    size_t storage;
    uint64_t offset;
    std::vector<int64_t> shape, stride;
    bool negated;
};

class Interpreter {
public:
    Interpreter(const uint8_t* data, size_t size, const std::string& where) : p_(data), size_(size), where_(where) {}

    TorchStateDict run() {
        const uint32_t root = interpret();
        return state_dict(root);
    }

private:
    // ---- errors and input ----
    [[noreturn]] void fail(const std::string& what) const {
        throw Error(where_ + ": data.pkl: " + what + " (at byte " + std::to_string(op_at_) + ")");
    }
    [[noreturn]] void fail_plain(const std::string& what) const { throw Error(where_ + ": data.pkl: " + what); }

    void need(uint64_t n) const {
        if (n > size_ - pos_)
            fail("truncated: " + std::to_string(n) + " more bytes needed, " + std::to_string(size_ - pos_) + " left");
    }
    uint8_t u8() {
        need(1);
        return p_[pos_++];
    }
    uint64_t le(int bytes) {
        need(static_cast<uint64_t>(bytes));
        uint64_t v = 0;
        for (int i = 0; i < bytes; ++i) v |= static_cast<uint64_t>(p_[pos_ + i]) << (8 * i);
        pos_ += static_cast<size_t>(bytes);
        return v;
    }
    std::string take(uint64_t n) {
        need(n);  // before allocating: the length comes from the file
        std::string s(reinterpret_cast<const char*>(p_ + pos_), static_cast<size_t>(n));
        pos_ += static_cast<size_t>(n);
        return s;
    }
    std::string line() {  // GLOBAL's module and name, each ended by '\n'
        const void* nl = std::memchr(p_ + pos_, '\n', size_ - pos_);
        if (!nl) fail("truncated: a GLOBAL name has no end of line");
        const size_t n = static_cast<size_t>(static_cast<const uint8_t*>(nl) - (p_ + pos_));
        std::string s = take(n);
        ++pos_;
        return s;
    }

    // ---- objects and the stack ----
    uint32_t make(Kind kind) {
        if (objects_.size() >= kMaxObjects) fail("more than " + std::to_string(kMaxObjects) + " objects");
        objects_.emplace_back();
        objects_.back().kind = kind;
        return static_cast<uint32_t>(objects_.size() - 1);
    }
    uint32_t make_int(int64_t v, Kind kind = Kind::Int) {
        const uint32_t o = make(kind);
        objects_[o].number = v;
        return o;
    }
    void push(uint32_t o) {
        if (stack_.size() >= kMaxStack) fail("the stack grows past " + std::to_string(kMaxStack) + " items");
        stack_.push_back(o);
    }
    size_t floor() const { return marks_.empty() ? 0 : marks_.back(); }
    // As in pickle.py, a MARK starts a fresh stack: nothing below it can be popped.
    uint32_t pop() {
        if (stack_.size() <= floor()) fail("stack underflow");
        const uint32_t o = stack_.back();
        stack_.pop_back();
        return o;
    }
    uint32_t& top() {
        if (stack_.size() <= floor()) fail("stack underflow");
        return stack_.back();
    }
    std::vector<uint32_t> pop_mark() {
        if (marks_.empty()) fail("no MARK to pop to");
        std::vector<uint32_t> items(stack_.begin() + static_cast<std::ptrdiff_t>(marks_.back()), stack_.end());
        stack_.resize(marks_.back());
        marks_.pop_back();
        return items;
    }
    void add_items(uint32_t container, const std::vector<uint32_t>& items) {
        items_ += items.size();
        if (items_ > kMaxItems) fail("more than " + std::to_string(kMaxItems) + " container elements");
        std::vector<uint32_t>& dst = objects_[container].items;
        dst.insert(dst.end(), items.begin(), items.end());
    }
    uint32_t make_container(Kind kind, const std::vector<uint32_t>& items) {
        const uint32_t o = make(kind);
        add_items(o, items);
        return o;
    }
    const Object& obj(uint32_t o) const { return objects_[o]; }

    std::string describe(uint32_t o) const {
        const Object& x = obj(o);
        switch (x.kind) {
            case Kind::None: return "None";
            case Kind::Bool: return "a bool";
            case Kind::Int: return "an int";
            case Kind::Float: return "a float";
            case Kind::Str: return "a string";
            case Kind::Tuple: return "a tuple";
            case Kind::List: return "a list";
            case Kind::Dict: return "a dict";
            case Kind::Global: return std::string(kAllowed[x.global].module) + "." + kAllowed[x.global].name;
            case Kind::Storage: return "a storage";
            case Kind::Tensor: return "a tensor";
        }
        return "?";
    }

    // ---- the opcodes ----
    uint32_t interpret() {
        while (true) {
            op_at_ = pos_;
            const uint8_t op = u8();
            switch (op) {
                case 0x80: {  // PROTO
                    const uint8_t v = u8();
                    if (v > 5) fail("pickle protocol " + std::to_string(v) + " is unknown");
                    break;
                }
                case 0x95: need(le(8)); break;  // FRAME: a buffering hint; its length must fit
                case '.': {                     // STOP
                    if (!marks_.empty()) fail("STOP inside an unclosed MARK");
                    return pop();
                }
                case '(':  // MARK
                    if (marks_.size() >= kMaxMarks) fail("more than " + std::to_string(kMaxMarks) + " nested MARKs");
                    marks_.push_back(stack_.size());
                    break;
                case '}': push(make(Kind::Dict)); break;                       // EMPTY_DICT
                case ']': push(make(Kind::List)); break;                       // EMPTY_LIST
                case ')': push(make(Kind::Tuple)); break;                      // EMPTY_TUPLE
                case 'X': push_string(take(le(4))); break;                     // BINUNICODE
                case 0x8c: push_string(take(u8())); break;                     // SHORT_BINUNICODE
                case 0x8d: push_string(take(le(8))); break;                    // BINUNICODE8
                case 'U': push_string(take(u8())); break;                      // SHORT_BINSTRING (Python 2)
                case 'J': push(make_int(static_cast<int32_t>(le(4)))); break;  // BININT
                case 'K': push(make_int(u8())); break;                         // BININT1
                case 'M': push(make_int(static_cast<int64_t>(le(2)))); break;  // BININT2
                case 0x8a: push(make_int(long1())); break;                     // LONG1
                case 'N': push(make(Kind::None)); break;                       // NONE
                case 0x88: push(make_int(1, Kind::Bool)); break;               // NEWTRUE
                case 0x89: push(make_int(0, Kind::Bool)); break;               // NEWFALSE
                case 'G': {                                                    // BINFLOAT, big-endian
                    uint64_t bits = 0;
                    for (int i = 0; i < 8; ++i) bits = bits << 8 | u8();
                    const uint32_t o = make(Kind::Float);
                    objects_[o].number = static_cast<int64_t>(bits);  // kept as bits: never used as a value
                    push(o);
                    break;
                }
                case 't': push(make_container(Kind::Tuple, pop_mark())); break;  // TUPLE
                case 0x85:                                                       // TUPLE1
                case 0x86:                                                       // TUPLE2
                case 0x87: {                                                     // TUPLE3
                    std::vector<uint32_t> items(op - 0x84);
                    for (size_t i = items.size(); i-- > 0;) items[i] = pop();
                    push(make_container(Kind::Tuple, items));
                    break;
                }
                case 's': {  // SETITEM
                    const uint32_t value = pop();
                    const uint32_t key = pop();
                    add_items(target(Kind::Dict, "SETITEM"), {key, value});
                    break;
                }
                case 'u': {  // SETITEMS
                    const std::vector<uint32_t> items = pop_mark();
                    if (items.size() % 2) fail("SETITEMS with an odd number of items");
                    add_items(target(Kind::Dict, "SETITEMS"), items);
                    break;
                }
                case 'a': {  // APPEND
                    const uint32_t value = pop();
                    add_items(target(Kind::List, "APPEND"), {value});
                    break;
                }
                case 'e': {  // APPENDS
                    const std::vector<uint32_t> items = pop_mark();
                    add_items(target(Kind::List, "APPENDS"), items);
                    break;
                }
                case 'q': memo_put(u8()); break;           // BINPUT
                case 'r': memo_put(le(4)); break;          // LONG_BINPUT
                case 0x94: memo_put(memo_.size()); break;  // MEMOIZE
                case 'h': push(memo_get(u8())); break;     // BINGET
                case 'j': push(memo_get(le(4))); break;    // LONG_BINGET
                case 'c': {                                // GLOBAL
                    std::string module = line();
                    std::string name = line();
                    push(global(module, name));
                    break;
                }
                case 0x93: {  // STACK_GLOBAL
                    const uint32_t name = pop();
                    const uint32_t module = pop();
                    if (obj(name).kind != Kind::Str || obj(module).kind != Kind::Str)
                        fail("STACK_GLOBAL of something other than two strings");
                    const std::string module_text = obj(module).text, name_text = obj(name).text;
                    push(global(module_text, name_text));
                    break;
                }
                case 'R': {  // REDUCE: callable(*args)
                    const uint32_t args = pop();
                    uint32_t& callable = top();
                    callable = call(callable, args);
                    break;
                }
                case 'Q': push(persistent_load(pop())); break;  // BINPERSID
                case 'b': {                                     // BUILD
                    const uint32_t state = pop();
                    const uint32_t inst = top();
                    // OrderedDict's attributes (a state dict's _metadata): nothing to keep.
                    if (obj(inst).kind != Kind::Dict ||
                        (obj(state).kind != Kind::Dict && obj(state).kind != Kind::None))
                        fail("BUILD of " + describe(inst) + " from " + describe(state) +
                             " is not part of a state dict");
                    break;
                }
                default: {
                    char hex[8];
                    std::snprintf(hex, sizeof hex, "0x%02x", op);
                    fail(std::string("pickle opcode ") + hex + " is not one a state dict uses");
                }
            }
        }
    }

    void push_string(std::string s) {
        const uint32_t o = make(Kind::Str);
        objects_[o].text = std::move(s);
        push(o);
    }

    // Two's complement, little-endian; only values that fit in 64 bits.
    int64_t long1() {
        const uint8_t n = u8();
        const std::string b = take(n);
        if (n == 0) return 0;
        const bool negative = static_cast<uint8_t>(b[n - 1]) & 0x80;
        for (size_t i = 8; i < n; ++i)
            if (static_cast<uint8_t>(b[i]) != (negative ? 0xff : 0x00)) fail("an integer over 64 bits");
        uint64_t v = negative ? ~uint64_t{0} : 0;
        for (size_t i = 0; i < std::min<size_t>(n, 8); ++i) {
            v &= ~(uint64_t{0xff} << (8 * i));
            v |= static_cast<uint64_t>(static_cast<uint8_t>(b[i])) << (8 * i);
        }
        if (n > 8 && (static_cast<int64_t>(v) < 0) != negative) fail("an integer over 64 bits");
        return static_cast<int64_t>(v);
    }

    uint32_t target(Kind kind, const char* op) {
        const uint32_t t = top();
        if (obj(t).kind != kind) fail(std::string(op) + " on " + describe(t));
        return t;
    }

    void memo_put(uint64_t index) {
        const uint32_t value = top();
        if (memo_.size() >= kMaxMemo && !memo_.count(index))
            fail("more than " + std::to_string(kMaxMemo) + " memo entries");
        memo_[index] = value;
    }
    uint32_t memo_get(uint64_t index) {
        const auto it = memo_.find(index);
        if (it == memo_.end()) fail("memo index " + std::to_string(index) + " is read before it is set");
        return it->second;
    }

    uint32_t global(const std::string& module, const std::string& name) {
        for (size_t i = 0; i < std::size(kAllowed); ++i) {
            if (module == kAllowed[i].module && name == kAllowed[i].name) {
                const uint32_t o = make(Kind::Global);
                objects_[o].global = static_cast<uint8_t>(i);
                return o;
            }
        }
        fail("refused the global " + cut_printable(module) + "." + cut_printable(name) +
             ": a state dict needs only tensors and dicts, and vitscope runs no code from a checkpoint");
    }

    // torch.serialization._load's persistent_load: ('storage', type, key, location, numel).
    uint32_t persistent_load(uint32_t pid) {
        const Object& id = obj(pid);
        if (id.kind != Kind::Tuple || id.items.size() != 5 || obj(id.items[0]).kind != Kind::Str ||
            obj(id.items[0]).text != "storage")
            fail("a persistent id other than ('storage', type, key, location, numel)");
        const Object& type = obj(id.items[1]);
        const Object& key = obj(id.items[2]);
        const Object& location = obj(id.items[3]);
        const Object& numel = obj(id.items[4]);
        if (type.kind != Kind::Global || kAllowed[type.global].kind != GlobalKind::StorageType)
            fail("a storage whose type is " + describe(id.items[1]) + ", not a torch storage class");
        if (key.kind != Kind::Str || location.kind != Kind::Str || numel.kind != Kind::Int)
            fail("a storage id whose key, location or size has the wrong type");
        // torch's keys are str(int); anything printable is fine, nothing that would break a message.
        if (key.text.empty() || key.text.size() > 100 ||
            std::any_of(key.text.begin(), key.text.end(), [](char c) { return c < 0x21 || c > 0x7e; }))
            fail("a storage key that is not a plain name ('" + cut_printable(key.text) + "')");
        const TorchDType dtype = kAllowed[type.global].dtype;
        if (numel.number < 0 || static_cast<uint64_t>(numel.number) > kMaxElements / torch_dtype_size(dtype))
            fail("storage '" + cut_printable(key.text) + "' has an impossible size of " + std::to_string(numel.number) +
                 " elements");
        // torch reuses a key's first storage; two different declarations mean a damaged file.
        const auto [it, added] = storage_index_.emplace(key.text, storages_.size());
        if (added) {
            storages_.push_back({key.text, dtype, static_cast<uint64_t>(numel.number)});
        } else {
            const TorchStorage& s = storages_[it->second];
            if (s.dtype != dtype || s.numel != static_cast<uint64_t>(numel.number))
                fail("storage '" + cut_printable(key.text) + "' is declared twice, as " + std::to_string(s.numel) +
                     " " + torch_dtype_name(s.dtype) + " and as " + std::to_string(numel.number) + " " +
                     torch_dtype_name(dtype));
        }
        return make_int(static_cast<int64_t>(it->second), Kind::Storage);
    }

    uint32_t call(uint32_t callable, uint32_t args_ref) {
        const Object& f = obj(callable);
        if (f.kind != Kind::Global) fail("REDUCE calls " + describe(callable));
        const Object& args = obj(args_ref);
        if (args.kind != Kind::Tuple) fail("REDUCE with arguments in " + describe(args_ref) + ", not a tuple");
        const std::vector<uint32_t> a = args.items;  // a copy: make() below may move objects_
        const std::string name = describe(callable);
        switch (kAllowed[f.global].kind) {
            case GlobalKind::OrderedDict:
                if (!a.empty()) fail("collections.OrderedDict called with arguments");
                return make(Kind::Dict);
            case GlobalKind::RebuildTensorV2:
                // (storage, offset, size, stride, requires_grad, backward_hooks[, metadata])
                if (a.size() != 6 && a.size() != 7)
                    fail(name + " called with " + std::to_string(a.size()) + " arguments");
                if (obj(a[4]).kind != Kind::Bool) fail(name + ": requires_grad is " + describe(a[4]));
                if (obj(a[5]).kind != Kind::Dict) fail(name + ": backward_hooks is " + describe(a[5]));
                return tensor(name, a[0], a[1], a[2], a[3], a.size() == 7 ? negated(name, a[6]) : false);
            case GlobalKind::RebuildTensor:  // (storage, offset, size, stride)
                if (a.size() != 4) fail(name + " called with " + std::to_string(a.size()) + " arguments");
                return tensor(name, a[0], a[1], a[2], a[3], false);
            case GlobalKind::RebuildParameter:  // (data, requires_grad, backward_hooks): the tensor itself
                if (a.size() != 3 || obj(a[0]).kind != Kind::Tensor)
                    fail(name + " called with something other than (tensor, requires_grad, hooks)");
                return a[0];
            case GlobalKind::StorageType: fail("REDUCE calls " + name + ", which a state dict never does");
        }
        fail("REDUCE calls " + name);
    }

    // torch._utils.get_tensor_metadata: {"neg": bool, "conj": bool}. conj does
    // nothing to real values; neg negates them.
    bool negated(const std::string& fn, uint32_t meta) const {
        const Object& m = obj(meta);
        if (m.kind != Kind::Dict) fail(fn + ": metadata is " + describe(meta));
        bool neg = false;
        for (size_t i = 0; i + 1 < m.items.size(); i += 2) {
            const Object& k = obj(m.items[i]);
            const Object& v = obj(m.items[i + 1]);
            if (k.kind != Kind::Str || v.kind != Kind::Bool || (k.text != "neg" && k.text != "conj"))
                fail(fn + ": metadata other than the neg and conj flags");
            if (k.text == "neg") neg = v.number != 0;
        }
        return neg;
    }

    std::vector<int64_t> int_tuple(const std::string& fn, const char* what, uint32_t ref) const {
        const Object& t = obj(ref);
        if (t.kind != Kind::Tuple) fail(fn + ": " + what + " is " + describe(ref) + ", not a tuple");
        if (t.items.size() > kMaxDims)
            fail(fn + ": " + what + " has " + std::to_string(t.items.size()) + " dimensions");
        std::vector<int64_t> v;
        for (uint32_t i : t.items) {
            if (obj(i).kind != Kind::Int || obj(i).number < 0)
                fail(fn + ": " + what + " holds something other than a size");
            v.push_back(obj(i).number);
        }
        return v;
    }

    uint32_t tensor(const std::string& fn, uint32_t storage, uint32_t offset, uint32_t size, uint32_t stride,
                    bool neg) {
        if (obj(storage).kind != Kind::Storage) fail(fn + ": the storage is " + describe(storage));
        if (obj(offset).kind != Kind::Int || obj(offset).number < 0) fail(fn + ": the storage offset is not a size");
        RawTensor t{static_cast<size_t>(obj(storage).number), static_cast<uint64_t>(obj(offset).number),
                    int_tuple(fn, "size", size), int_tuple(fn, "stride", stride), neg};
        if (t.shape.size() != t.stride.size())
            fail(fn + ": size " + shape_string(t.shape) + " and stride " + shape_string(t.stride) +
                 " differ in length");
        const uint32_t o = make_int(static_cast<int64_t>(tensors_.size()), Kind::Tensor);
        tensors_.push_back(std::move(t));
        return o;
    }

    // ---- the state dict ----
    bool all_tensors(const Object& dict) const {
        for (size_t i = 1; i < dict.items.size(); i += 2)
            if (obj(dict.items[i]).kind != Kind::Tensor) return false;
        return true;
    }

    TorchStateDict state_dict(uint32_t root) const {
        if (obj(root).kind != Kind::Dict) fail_plain("holds " + describe(root) + ", not a state dict");
        const Object* dict = &obj(root);
        // Training checkpoints wrap the weights: {"state_dict": {...}, ...} or {"model": {...}, ...}.
        if (!all_tensors(*dict)) {
            for (const char* wrapper : {"state_dict", "model"}) {
                for (size_t i = 0; i + 1 < dict->items.size(); i += 2) {
                    const Object& k = obj(dict->items[i]);
                    if (k.kind == Kind::Str && k.text == wrapper && obj(dict->items[i + 1]).kind == Kind::Dict) {
                        dict = &obj(dict->items[i + 1]);
                        break;
                    }
                }
                if (dict != &obj(root)) break;
            }
        }
        TorchStateDict sd;
        std::unordered_map<size_t, size_t> storage_slot;  // parsed storage index -> index in sd.storages
        for (size_t i = 0; i + 1 < dict->items.size(); i += 2) {
            const Object& k = obj(dict->items[i]);
            const uint32_t v = dict->items[i + 1];
            if (k.kind != Kind::Str) fail_plain("a state dict key is " + describe(dict->items[i]) + ", not a name");
            const std::string name = cut_printable(k.text);
            if (name != k.text) fail_plain("tensor name '" + name + "' holds control characters");
            if (obj(v).kind != Kind::Tensor)
                fail_plain("entry '" + name + "' of the state dict is " + describe(v) + ", not a tensor");
            const RawTensor& raw = tensors_[static_cast<size_t>(obj(v).number)];
            const TorchStorage& storage = storages_[raw.storage];
            check_extent(name, raw, storage);
            const auto [slot, added] = storage_slot.emplace(raw.storage, sd.storages.size());
            if (added) sd.storages.push_back(storage);
            sd.tensors[k.text] =
                TorchTensor{slot->second, raw.offset, raw.shape, raw.stride, raw.negated};  // last wins, as in a dict
        }
        return sd;
    }

    // A storage shorter than its tensor would be read past its end.
    void check_extent(const std::string& name, const RawTensor& t, const TorchStorage& s) const {
        uint64_t numel = 1;
        for (int64_t d : t.shape)
            if (__builtin_mul_overflow(numel, static_cast<uint64_t>(d), &numel) || numel > kMaxElements)
                fail_plain("tensor '" + name + "' has an impossibly large size " + shape_string(t.shape));
        if (numel == 0) return;
        uint64_t last = t.offset;
        bool overflow = false;
        for (size_t k = 0; k < t.shape.size(); ++k) {
            uint64_t step = 0;
            overflow |= __builtin_mul_overflow(static_cast<uint64_t>(t.shape[k] - 1),
                                               static_cast<uint64_t>(t.stride[k]), &step);
            overflow |= __builtin_add_overflow(last, step, &last);
        }
        if (overflow || last >= s.numel)
            fail_plain("tensor '" + name + "' (size " + shape_string(t.shape) + ", stride " + shape_string(t.stride) +
                       ", offset " + std::to_string(t.offset) + ") reads past the end of storage '" +
                       cut_printable(s.key) + "', which holds " + std::to_string(s.numel) + " elements");
    }

    const uint8_t* p_;
    size_t size_;
    size_t pos_ = 0, op_at_ = 0;
    const std::string& where_;
    std::vector<Object> objects_;
    std::vector<uint32_t> stack_;
    std::vector<size_t> marks_;
    std::unordered_map<uint64_t, uint32_t> memo_;
    size_t items_ = 0;
    std::vector<TorchStorage> storages_;
    std::unordered_map<std::string, size_t> storage_index_;
    std::vector<RawTensor> tensors_;
};

}  // namespace

TorchStateDict parse_torch_pickle(const uint8_t* data, size_t size, const std::string& where) {
    return Interpreter(data, size, where).run();
}

}  // namespace vit
