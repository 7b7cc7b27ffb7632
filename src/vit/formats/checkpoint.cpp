// load_model: a model folder (model.safetensors or pytorch_model.bin, and
// config.json) in any supported naming scheme, mapped onto the canonical
// vit::Model with every shape checked.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <set>

#include "vit/base/error.h"
#include "vit/base/memory_budget.h"
#include "vit/base/shape_string.h"
#include "vit/formats/checkpoint.h"
#include "vit/formats/model_files.h"
#include "vit/formats/weight_file.h"
#include "vit/kernels/kernels.h"
#include "vit/model/labels.h"
#include "vit/model/model.h"
#include "vit/model/model_family.h"

namespace vit {
namespace {

std::string first_names(const WeightFile& st, size_t count) {
    std::string s;
    for (const auto& [name, shape] : st.shapes()) {
        if (count-- == 0) break;
        s += (s.empty() ? "" : ", ") + name;
    }
    return s.empty() ? "none" : s;
}

// The first family (model_family.h's order) whose layout the tensor names are.
TensorNames detect_scheme(const WeightFile& st) {
    const HasTensor has = [&](const std::string& name) { return st.has(name); };
    for (const ModelFamily* f : model_families())
        if (f->timm_layout)
            if (std::optional<TensorNames> n = f->timm_layout(has)) return *n;
    // A Hugging Face layout: the model prefix before the patch embedding's name.
    const std::string marker = "embeddings.patch_embeddings.projection.weight";
    for (const auto& [name, shape] : st.shapes()) {
        if (name.size() < marker.size() || name.compare(name.size() - marker.size(), marker.size(), marker) != 0)
            continue;
        const std::string p = name.substr(0, name.size() - marker.size());
        if (!p.empty() && p.back() != '.') continue;
        for (const ModelFamily* f : model_families())
            if (f->hf_layout)
                if (std::optional<TensorNames> n = f->hf_layout(has, p)) return *n;
    }
    throw Error(st.path() + ": unknown naming scheme (first tensor names: " + first_names(st, 5) + ")");
}

// Reads tensors by name with exact shapes, remembering which ones were used.
class Reader {
public:
    Reader(const WeightFile& st, std::string scheme) : st_(st), scheme_(std::move(scheme)) {}

    [[noreturn]] void fail(const std::string& what) const { throw Error(st_.path() + ": " + what); }

    bool has(const std::string& name) const { return !name.empty() && st_.has(name); }

    const std::vector<int64_t>& shape(const std::string& name) const { return require(name); }

    std::vector<float> read(const std::string& name, const std::vector<int64_t>& expected) {
        const std::vector<int64_t>& shape = require(name);
        if (shape != expected)
            fail("tensor '" + name + "' has shape " + shape_string(shape) + ", expected " + shape_string(expected));
        used_.insert(name);
        std::vector<float> values = st_.to_f32(name);
        // A NaN or infinity would silently turn every map it reaches into noise.
        const auto bad = std::count_if(values.begin(), values.end(), [](float v) { return !std::isfinite(v); });
        if (bad)
            fail("tensor '" + name + "' holds " + std::to_string(bad) + " NaN or infinite value" +
                 (bad > 1 ? "s" : "") + " of " + std::to_string(values.size()) + "; the checkpoint is damaged");
        return values;
    }

    Vec vec(const std::string& name, int n) {
        const std::vector<float> v = read(name, {n});
        return Eigen::Map<const Vec>(v.data(), n);
    }
    Mat mat(const std::string& name, const std::vector<int64_t>& shape, int rows, int cols) {
        const std::vector<float> v = read(name, shape);
        return Eigen::Map<const Mat>(v.data(), rows, cols);
    }
    Linear linear(const std::string& name, int out, int in) {
        return {mat(name + ".weight", {out, in}, out, in), vec(name + ".bias", out), {}};
    }

    const std::set<std::string>& used() const { return used_; }

private:
    const std::vector<int64_t>& require(const std::string& name) const {
        const auto it = st_.shapes().find(name);
        if (it == st_.shapes().end()) fail("tensor '" + name + "' is missing (naming scheme " + scheme_ + ")");
        return it->second;
    }

    const WeightFile& st_;
    std::string scheme_;
    std::set<std::string> used_;
};

// Blocks are numbered 0..depth-1 after the scheme's block prefix.
int count_blocks(const WeightFile& st, const std::string& prefix) {
    int depth = 0;
    for (const auto& [name, shape] : st.shapes()) {
        if (name.compare(0, prefix.size(), prefix) != 0) continue;
        const size_t dot = name.find('.', prefix.size());
        const std::string index = name.substr(prefix.size(), dot - prefix.size());
        if (index.empty() || index.size() > 6 || index.find_first_not_of("0123456789") != std::string::npos) continue;
        depth = std::max(depth, std::stoi(index) + 1);
    }
    return depth;
}

// A token tensor [1, count, dim] as a count x dim matrix.
Mat tokens(Reader& r, const std::string& name, int count, int dim) { return r.mat(name, {1, count, dim}, count, dim); }

void read_embeddings(Reader& r, const TensorNames& n, const ModelConfig& cfg, Model& m) {
    const int dim = m.dim;
    const std::vector<int64_t>& pw = r.shape(n.patch_embed + ".weight");
    if (pw.size() != 4 || pw[0] != dim || pw[1] != 3 || pw[2] != pw[3] || pw[2] <= 0)
        r.fail("tensor '" + n.patch_embed + ".weight' has shape " + shape_string(pw) + ", expected [" +
               std::to_string(dim) + ", 3, p, p]");
    m.patch = static_cast<int>(pw[2]);
    if (m.patch != cfg.patch_size)
        r.fail("config patch size " + std::to_string(cfg.patch_size) + " but tensor '" + n.patch_embed +
               ".weight' has " + std::to_string(m.patch) + "x" + std::to_string(m.patch) + " patches");
    const int pp = 3 * m.patch * m.patch;
    // PyTorch conv weight [out, in, kh, kw] flattens to [out][c][y][x], the canonical layout.
    m.patch_embed.w = r.mat(n.patch_embed + ".weight", pw, dim, pp);
    m.patch_embed.b = r.vec(n.patch_embed + ".bias", dim);

    m.cls = tokens(r, n.cls, 1, dim).row(0);
    m.has_dist_token = r.has(n.dist);
    if (m.has_dist_token) m.dist = tokens(r, n.dist, 1, dim).row(0);
    if (r.has(n.registers)) {
        const std::vector<int64_t>& rs = r.shape(n.registers);
        if (rs.size() != 3 || rs[1] <= 0)
            r.fail("tensor '" + n.registers + "' has shape " + shape_string(rs) + ", expected [1, registers, " +
                   std::to_string(dim) + "]");
        m.num_registers = static_cast<int>(rs[1]);
        m.registers = tokens(r, n.registers, m.num_registers, dim);
    } else {
        m.registers.resize(0, dim);
    }

    // Position embeddings: canonical rows are CLS (+ dist), then the grid.
    if (cfg.image_size % m.patch != 0)
        r.fail("config image size " + std::to_string(cfg.image_size) + " is not a multiple of the patch size " +
               std::to_string(m.patch));
    const int grid = cfg.image_size / m.patch;
    const int cls_rows = 1 + (m.has_dist_token ? 1 : 0);
    const std::vector<int64_t>& ps = r.shape(n.pos);
    const int64_t rows = ps.size() == 3 ? ps[1] : -1;
    const int64_t g2 = static_cast<int64_t>(grid) * grid;
    Mat pos;
    if (rows == cls_rows + g2) {
        pos = tokens(r, n.pos, static_cast<int>(rows), dim);
    } else if (rows == g2) {
        // timm no_embed_class: prefix tokens get no position; zero rows say the same.
        pos = Mat::Zero(cls_rows + g2, dim);
        pos.bottomRows(g2) = tokens(r, n.pos, static_cast<int>(rows), dim);
    } else if (m.num_registers > 0 && rows == cls_rows + m.num_registers + g2) {
        // timm registers with their own positions: a register's embedding is a
        // constant, so its position folds into it exactly.
        const Mat all = tokens(r, n.pos, static_cast<int>(rows), dim);
        m.registers += all.middleRows(cls_rows, m.num_registers);
        pos.resize(cls_rows + g2, dim);
        pos << all.topRows(cls_rows), all.bottomRows(g2);
    } else {
        r.fail("tensor '" + n.pos + "' has shape " + shape_string(ps) + ", expected [1, " +
               std::to_string(cls_rows + g2) + ", " + std::to_string(dim) + "] (" + std::to_string(cls_rows) + " + " +
               std::to_string(grid) + "x" + std::to_string(grid) + " grid from image size " +
               std::to_string(cfg.image_size) + " / patch " + std::to_string(m.patch) + ")");
    }
    m.pos = std::move(pos);
    m.pos_grid = grid;
}

Block read_block(Reader& r, const TensorNames& n, int i, const Model& m) {
    const std::string b = n.block(i);
    const int dim = m.dim;
    Block blk;
    blk.ln1_w = r.vec(b + n.ln1 + ".weight", dim);
    blk.ln1_b = r.vec(b + n.ln1 + ".bias", dim);
    if (!n.qkv.empty()) {
        // Fused rows q | k | v, each dim rows with the heads contiguous inside.
        const Mat w = r.mat(b + n.qkv + ".weight", {3 * dim, dim}, 3 * dim, dim);
        const Vec bias = r.vec(b + n.qkv + ".bias", 3 * dim);
        blk.q = {w.topRows(dim), bias.head(dim), {}};
        blk.k = {w.middleRows(dim, dim), bias.segment(dim, dim), {}};
        blk.v = {w.bottomRows(dim), bias.tail(dim), {}};
    } else {
        blk.q = r.linear(b + n.q, dim, dim);
        blk.k = r.linear(b + n.k, dim, dim);
        blk.v = r.linear(b + n.v, dim, dim);
    }
    blk.proj = r.linear(b + n.proj, dim, dim);
    if (r.has(b + n.ls1)) blk.ls1 = r.vec(b + n.ls1, dim);
    blk.ln2_w = r.vec(b + n.ln2 + ".weight", dim);
    blk.ln2_b = r.vec(b + n.ln2 + ".bias", dim);
    blk.fc1 = r.linear(b + n.fc1, m.mlp_dim, dim);
    blk.fc2 = r.linear(b + n.fc2, dim, m.mlp_dim);
    if (r.has(b + n.ls2)) blk.ls2 = r.vec(b + n.ls2, dim);
    return blk;
}

void read_heads(Reader& r, const TensorNames& n, Model& m) {
    if (!r.has(n.head + ".weight")) {
        m.head.w.resize(0, m.dim);
        m.head_dist.w.resize(0, m.dim);
        return;
    }
    const std::vector<int64_t>& hs = r.shape(n.head + ".weight");
    if (hs.size() == 2 && hs[1] == 2 * m.dim)
        r.fail("tensor '" + n.head + ".weight' reads CLS and mean patch features (" + std::to_string(hs[1]) +
               " inputs); only a CLS classifier is supported");
    if (hs.size() != 2 || hs[1] != m.dim)
        r.fail("tensor '" + n.head + ".weight' has shape " + shape_string(hs) + ", expected [classes, " +
               std::to_string(m.dim) + "]");
    const int classes = static_cast<int>(hs[0]);
    m.head = r.linear(n.head, classes, m.dim);
    if (r.has(n.head_dist + ".weight")) {
        if (!m.has_dist_token)
            r.fail("tensor '" + n.head_dist + ".weight' needs a distillation token, which is missing");
        m.head_dist = r.linear(n.head_dist, classes, m.dim);
    } else {
        m.head_dist.w.resize(0, m.dim);
    }
}

// What the config implies about the layout, register tokens and layer scale
// must be what the weights hold; otherwise the model would run as something
// its own library would not (or could not) run.
void check_config_agrees(const Reader& r, const TensorNames& n, const ModelConfig& cfg, const Model& m) {
    for (const ModelFamily* f : model_families()) {
        if (!f->model_type_fixes_layout || cfg.model_type.empty()) continue;
        const bool its_type = family_of_model_type(cfg.model_type) == f;
        if (its_type != (n.scheme == f->scheme))
            r.fail("config.json's model_type '" + cfg.model_type +
                   "' does not match the weights, which are laid out as " + n.scheme);
    }
    if (cfg.num_registers >= 0 && cfg.num_registers != m.num_registers)
        r.fail(std::to_string(cfg.num_registers) + " register tokens by " + cfg.registers_from +
               " but the weights have " +
               (m.num_registers ? std::to_string(m.num_registers) + " (tensor '" + n.registers + "')"
                                : "none (no tensor '" + n.registers + "')"));
    const std::string why = cfg.source == "hf" ? "model_type " + cfg.model_type : "the architecture " + cfg.name;
    const bool some = std::any_of(m.blocks.begin(), m.blocks.end(),
                                  [](const Block& b) { return b.ls1.size() > 0 || b.ls2.size() > 0; });
    for (size_t i = 0; i < m.blocks.size(); ++i) {
        const Block& b = m.blocks[i];
        for (const auto& [scale, name] : {std::pair{&b.ls1, n.ls1}, std::pair{&b.ls2, n.ls2}}) {
            if (scale->size() > 0) continue;
            const std::string tensor = "tensor '" + n.block(static_cast<int>(i)) + name + "' is missing";
            if (cfg.layer_scale)
                r.fail(why + " scales both residual branches of every block (layer scale), but " + tensor +
                       (cfg.source == "hf" ? " (transformers would leave it at layerscale_value, untrained)" : ""));
            if (some) r.fail(tensor + ", though other layer-scale weights are there");
        }
    }
}

// Anything neither read nor known to be unused means an architecture we would run wrongly.
void check_all_used(const WeightFile& st, const Reader& r, const TensorNames& n) {
    for (const auto& entry : st.shapes()) {
        const std::string& name = entry.first;  // a plain reference: clang 14 cannot capture a structured binding
        if (r.used().count(name)) continue;
        const bool ignored = std::any_of(n.ignored.begin(), n.ignored.end(),
                                         [&](const std::string& p) { return name.compare(0, p.size(), p) == 0; });
        if (!ignored)
            r.fail("unexpected tensor '" + name + "' for a plain ViT in naming scheme " + n.scheme +
                   " (unsupported architecture?)");
    }
}

Model build(const WeightFile& st, ModelConfig cfg) {
    const TensorNames n = detect_scheme(st);
    Reader r(st, n.scheme);
    Model m;
    m.scheme = n.scheme;

    const std::vector<int64_t>& cs = r.shape(n.cls);
    if (cs.size() != 3 || cs[0] != 1 || cs[1] != 1 || cs[2] <= 0)
        r.fail("tensor '" + n.cls + "' has shape " + shape_string(cs) + ", expected [1, 1, dim]");
    m.dim = static_cast<int>(cs[2]);
    if (cfg.dim > 0 && cfg.dim != m.dim)
        r.fail("config width " + std::to_string(cfg.dim) + " but the weights are " + std::to_string(m.dim) + " wide");
    if (cfg.heads <= 0) r.fail("the config does not give the number of attention heads");
    m.heads = cfg.heads;
    if (m.dim % m.heads != 0)
        r.fail("width " + std::to_string(m.dim) + " is not divisible by " + std::to_string(m.heads) +
               " heads from the config");
    m.head_dim = m.dim / m.heads;

    m.depth = count_blocks(st, n.blocks);
    if (m.depth == 0) r.fail("no transformer blocks ('" + n.blocks + "N.*')");
    if (cfg.depth > 0 && cfg.depth != m.depth)
        r.fail("config depth " + std::to_string(cfg.depth) + " but the weights have " + std::to_string(m.depth) +
               " blocks");
    const std::vector<int64_t>& f1 = r.shape(n.block(0) + n.fc1 + ".weight");
    if (f1.size() != 2 || f1[0] <= 0)
        r.fail("tensor '" + n.block(0) + n.fc1 + ".weight' has shape " + shape_string(f1) + ", expected [mlp, " +
               std::to_string(m.dim) + "]");
    m.mlp_dim = static_cast<int>(f1[0]);
    if (cfg.mlp_dim > 0 && cfg.mlp_dim != m.mlp_dim)
        r.fail("config MLP width " + std::to_string(cfg.mlp_dim) + " but the weights have " +
               std::to_string(m.mlp_dim));

    read_embeddings(r, n, cfg, m);
    for (int i = 0; i < m.depth; ++i) m.blocks.push_back(read_block(r, n, i, m));
    check_config_agrees(r, n, cfg, m);
    m.norm_w = r.vec(n.norm + ".weight", m.dim);
    m.norm_b = r.vec(n.norm + ".bias", m.dim);
    read_heads(r, n, m);
    check_all_used(st, r, n);

    if (cfg.num_classes >= 0 && cfg.num_classes != m.num_classes())
        r.fail("the config says num_classes " + std::to_string(cfg.num_classes) + " but the classifier has " +
               std::to_string(m.num_classes()));
    // Labels only mean something beside a classifier of the same size.
    if (m.num_classes() == 0) {
        cfg.labels.clear();
        cfg.labels_source.clear();
    } else if (!cfg.labels.empty() && static_cast<int>(cfg.labels.size()) != m.num_classes())
        r.fail("the config names " + std::to_string(cfg.labels.size()) + " classes but the classifier has " +
               std::to_string(m.num_classes()));
    cfg.dim = m.dim;
    cfg.depth = m.depth;
    cfg.heads = m.heads;
    cfg.mlp_dim = m.mlp_dim;
    cfg.patch_size = m.patch;
    m.config = std::move(cfg);
    return m;
}

// The weights as f32 from their shapes alone: the sum saturates instead of wrapping.
size_t f32_bytes(const WeightFile& weights) {
    size_t total = 0;
    for (const auto& [name, shape] : weights.shapes()) {
        size_t n = sizeof(float);
        for (int64_t d : shape)
            if (__builtin_mul_overflow(n, static_cast<size_t>(d), &n)) return SIZE_MAX;
        if (__builtin_add_overflow(total, n, &total)) return SIZE_MAX;
    }
    return total;
}

}  // namespace

std::string check_model_folder(const std::string& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::exists(dir, ec)) throw Error(dir + ": model folder not found");
    if (!fs::is_directory(dir, ec))
        throw Error(dir + ": not a folder (a model is a folder with " + model_folder_contents() + ")");
    std::string weights = find_weight_file(dir);
    const fs::path config = fs::path(dir) / kConfigFileName;
    if (!fs::exists(config, ec))
        throw Error(config.string() + ": not found (a model folder holds config.json beside its weights)");
    return weights;
}

Model load_model(const std::string& dir) {
    const std::string path = check_model_folder(dir);
    ModelConfig cfg = read_model_config(dir);
    const std::unique_ptr<WeightFile> weights = open_weight_file(path);
    // Every weight becomes f32: refuse before converting any when that is too much.
    const size_t bytes = f32_bytes(*weights);
    if (const size_t budget = default_memory_budget(); bytes > budget)
        throw Error(path + ": the weights take " +
                    (bytes == SIZE_MAX ? std::string("more than 16 EiB") : byte_size(bytes)) +
                    " as f32, over the memory budget of " + byte_size(budget) + " (raise VITSCOPE_MEMORY_BUDGET)");
    Model m = build(*weights, std::move(cfg));
    m.weights_file = path;
    m.weights_format = weights->format();
    add_shipped_labels(m, shipped_labels_dir());
    pack_weights(m);
    return m;
}

}  // namespace vit
