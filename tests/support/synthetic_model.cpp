#include "support/synthetic_model.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>

namespace vit::testing {
namespace {

using json = nlohmann::json;

// Uniform floats from mt19937's fully specified stream (std distributions are
// implementation-defined, which would make "the same seed" compiler-dependent).
class Random {
public:
    explicit Random(uint32_t seed) : gen_(seed) {}
    float uniform(float lo, float hi) {
        return lo + (hi - lo) * static_cast<float>(gen_() >> 8) * (1.0f / 16777216.0f);
    }
    template <class T>
    T fill(long rows, long cols, float scale, float offset = 0.0f) {
        T t(rows, cols);
        for (long i = 0; i < t.size(); ++i) t.data()[i] = offset + uniform(-scale, scale);
        return t;
    }
    Vec vec(long n, float scale, float offset = 0.0f) { return fill<Mat>(n, 1, scale, offset).col(0); }
    Linear linear(int out, int in) {
        const float s = 1.0f / std::sqrt(static_cast<float>(in));
        return {fill<Mat>(out, in, s), vec(out, 0.1f), {}};
    }

private:
    std::mt19937 gen_;
};

std::vector<float> values(const float* p, long n) { return std::vector<float>(p, p + n); }
template <class T>
std::vector<float> values(const T& t) {
    return values(t.data(), static_cast<long>(t.size()));
}

// Collects tensors in write order.
struct Writer {
    DType dtype;
    std::vector<TensorToWrite> out;
    void add(const std::string& name, std::vector<int64_t> shape, std::vector<float> v) {
        out.push_back({name, dtype, std::move(shape), std::move(v)});
    }
    template <class T>
    void tokens(const std::string& name, const T& rows) {  // count x dim as [1, count, dim]
        add(name, {1, static_cast<int64_t>(rows.rows()), static_cast<int64_t>(rows.cols())}, values(rows));
    }
    void vec(const std::string& name, const Vec& v) { add(name, {v.size()}, values(v)); }
    void linear(const std::string& name, const Linear& l) {
        add(name + ".weight", {l.w.rows(), l.w.cols()}, values(l.w));
        vec(name + ".bias", l.b);
    }
    void norm(const std::string& name, const Vec& w, const Vec& b) {
        vec(name + ".weight", w);
        vec(name + ".bias", b);
    }
};

void refuse(bool bad, const std::string& scheme, const std::string& what) {
    if (bad) throw std::invalid_argument("scheme " + scheme + " cannot hold " + what);
}

void patch_embed(Writer& w, const Model& m, const std::string& name) {
    w.add(name + ".weight", {m.dim, 3, m.patch, m.patch}, values(m.patch_embed.w));
    w.vec(name + ".bias", m.patch_embed.b);
}

std::vector<TensorToWrite> timm_tensors(const Model& m, DType dtype, TimmPos pos_layout) {
    Writer w{dtype, {}};
    w.tokens("cls_token", m.cls);
    if (m.has_dist_token) w.tokens("dist_token", m.dist);
    const int cls_rows = 1 + (m.has_dist_token ? 1 : 0);
    const long g2 = static_cast<long>(m.pos_grid) * m.pos_grid;
    Mat registers = m.registers;
    switch (pos_layout) {
        case TimmPos::ClsAndGrid: w.tokens("pos_embed", m.pos); break;
        case TimmPos::GridOnly:
            refuse(!m.pos.topRows(cls_rows).isZero(0), "timm", "CLS position rows that are not zero without them");
            w.tokens("pos_embed", Mat(m.pos.bottomRows(g2)));
            break;
        case TimmPos::WithRegisters: {
            // Give registers positions and subtract them from the register tokens,
            // so the sum the loader folds back equals the model's registers.
            Random rnd(99);
            const Mat reg_pos = rnd.fill<Mat>(m.num_registers, m.dim, 0.5f);
            registers -= reg_pos;
            Mat pos(m.pos.rows() + m.num_registers, m.dim);
            pos << m.pos.topRows(cls_rows), reg_pos, m.pos.bottomRows(g2);
            w.tokens("pos_embed", pos);
            break;
        }
    }
    if (m.num_registers) w.tokens("reg_token", registers);
    patch_embed(w, m, "patch_embed.proj");
    for (int i = 0; i < m.depth; ++i) {
        const Block& b = m.blocks[i];
        const std::string p = "blocks." + std::to_string(i) + ".";
        w.norm(p + "norm1", b.ln1_w, b.ln1_b);
        Linear qkv{Mat(3 * m.dim, m.dim), Vec(3 * m.dim), {}};
        qkv.w << b.q.w, b.k.w, b.v.w;
        qkv.b << b.q.b, b.k.b, b.v.b;
        w.linear(p + "attn.qkv", qkv);
        w.linear(p + "attn.proj", b.proj);
        if (b.ls1.size()) w.vec(p + "ls1.gamma", b.ls1);
        w.norm(p + "norm2", b.ln2_w, b.ln2_b);
        w.linear(p + "mlp.fc1", b.fc1);
        w.linear(p + "mlp.fc2", b.fc2);
        if (b.ls2.size()) w.vec(p + "ls2.gamma", b.ls2);
    }
    w.norm("norm", m.norm_w, m.norm_b);
    if (m.num_classes()) w.linear("head", m.head);
    if (m.head_dist.w.rows()) w.linear("head_dist", m.head_dist);
    return w.out;
}

std::vector<TensorToWrite> hf_tensors(const Model& m, const std::string& scheme, DType dtype) {
    const bool dinov2 = scheme == "dinov2";
    const bool layer_scale = !m.blocks.empty() && m.blocks[0].ls1.size();
    refuse(m.num_registers && !dinov2, scheme, "register tokens");
    refuse(layer_scale && !dinov2, scheme, "layer scale");
    refuse(m.has_dist_token && scheme != "hf-deit", scheme, "a distillation token");
    refuse(scheme == "hf-deit" && !m.has_dist_token, scheme, "a model without a distillation token");
    refuse(m.num_classes() && (scheme == "hf-dino" || dinov2), scheme, "a CLS classifier");
    refuse(!m.num_classes() && scheme == "hf-vit", scheme, "a model without classifier (that is hf-dino)");

    const std::string p = scheme == "hf-vit" ? "vit." : scheme == "hf-deit" && m.num_classes() ? "deit." : "";
    Writer w{dtype, {}};
    w.tokens(p + "embeddings.cls_token", m.cls);
    if (m.has_dist_token) w.tokens(p + "embeddings.distillation_token", m.dist);
    if (dinov2)
        w.add(p + "embeddings.mask_token", {1, m.dim},
              std::vector<float>(m.dim, 0.0f));  // [1, hidden]; pretraining only
    if (m.num_registers) w.tokens(p + "embeddings.register_tokens", m.registers);
    w.tokens(p + "embeddings.position_embeddings", m.pos);
    patch_embed(w, m, p + "embeddings.patch_embeddings.projection");
    for (int i = 0; i < m.depth; ++i) {
        const Block& b = m.blocks[i];
        const std::string l = p + "encoder.layer." + std::to_string(i) + ".";
        w.norm(l + (dinov2 ? "norm1" : "layernorm_before"), b.ln1_w, b.ln1_b);
        w.linear(l + "attention.attention.query", b.q);
        w.linear(l + "attention.attention.key", b.k);
        w.linear(l + "attention.attention.value", b.v);
        w.linear(l + "attention.output.dense", b.proj);
        if (b.ls1.size()) w.vec(l + "layer_scale1.lambda1", b.ls1);
        w.norm(l + (dinov2 ? "norm2" : "layernorm_after"), b.ln2_w, b.ln2_b);
        w.linear(l + (dinov2 ? "mlp.fc1" : "intermediate.dense"), b.fc1);
        w.linear(l + (dinov2 ? "mlp.fc2" : "output.dense"), b.fc2);
        if (b.ls2.size()) w.vec(l + "layer_scale2.lambda1", b.ls2);
    }
    w.norm(p + "layernorm", m.norm_w, m.norm_b);
    if (scheme == "hf-dino") {  // ViTModel's pooler, which the loader must ignore
        Random rnd(7);
        w.linear("pooler.dense", rnd.linear(m.dim, m.dim));
    }
    if (m.num_classes()) {
        const bool teacher = m.head_dist.w.rows() > 0;
        w.linear(teacher ? "cls_classifier" : "classifier", m.head);
        if (teacher) w.linear("distillation_classifier", m.head_dist);
    }
    return w.out;
}

}  // namespace

Model make_synthetic_model(const SyntheticSpec& s) {
    Random rnd(s.seed);
    Model m;
    m.scheme = "synthetic";
    m.dim = s.dim;
    m.depth = s.depth;
    m.heads = s.heads;
    m.head_dim = s.dim / s.heads;
    m.patch = s.patch;
    m.mlp_dim = s.mlp_dim;
    m.num_registers = s.registers;
    m.has_dist_token = s.dist_token;
    m.pos_grid = s.image / s.patch;

    const int pp = 3 * s.patch * s.patch;
    m.patch_embed.w = rnd.fill<Mat>(s.dim, pp, 1.0f / std::sqrt(static_cast<float>(pp)));
    m.patch_embed.b = rnd.vec(s.dim, 0.1f);
    m.cls = rnd.fill<RowVec>(1, s.dim, 0.5f);
    if (s.dist_token) m.dist = rnd.fill<RowVec>(1, s.dim, 0.5f);
    m.registers = rnd.fill<Mat>(s.registers, s.dim, 0.5f);
    m.pos = rnd.fill<Mat>(1 + (s.dist_token ? 1 : 0) + m.pos_grid * m.pos_grid, s.dim, 0.5f);
    for (int i = 0; i < s.depth; ++i) {
        Block b;
        b.ln1_w = rnd.vec(s.dim, 0.2f, 1.0f);
        b.ln1_b = rnd.vec(s.dim, 0.1f);
        b.q = rnd.linear(s.dim, s.dim);
        b.k = rnd.linear(s.dim, s.dim);
        b.v = rnd.linear(s.dim, s.dim);
        b.proj = rnd.linear(s.dim, s.dim);
        if (s.layer_scale) b.ls1 = rnd.vec(s.dim, 0.2f, 0.5f);
        b.ln2_w = rnd.vec(s.dim, 0.2f, 1.0f);
        b.ln2_b = rnd.vec(s.dim, 0.1f);
        b.fc1 = rnd.linear(s.mlp_dim, s.dim);
        b.fc2 = rnd.linear(s.dim, s.mlp_dim);
        if (s.layer_scale) b.ls2 = rnd.vec(s.dim, 0.2f, 0.5f);
        m.blocks.push_back(std::move(b));
    }
    m.norm_w = rnd.vec(s.dim, 0.2f, 1.0f);
    m.norm_b = rnd.vec(s.dim, 0.1f);
    m.head.w.resize(0, s.dim);
    m.head_dist.w.resize(0, s.dim);
    if (s.classes > 0) {
        m.head = rnd.linear(s.classes, s.dim);
        if (s.dist_token) m.head_dist = rnd.linear(s.classes, s.dim);
    }

    ModelConfig& c = m.config;
    c.name = "vit_synthetic";
    c.source = "timm";
    c.image_size = s.image;
    c.patch_size = s.patch;
    c.dim = s.dim;
    c.depth = s.depth;
    c.heads = s.heads;
    c.mlp_dim = s.mlp_dim;
    c.ln_eps = 1e-6f;
    for (int i = 0; i < s.classes; ++i) c.labels.push_back("class " + std::to_string(i));
    c.pre.input_size = s.image;
    c.pre.crop_pct = 0.8f;
    c.pre.interpolation = "bicubic";
    c.pre.mean = {0.5f, 0.4f, 0.3f};
    c.pre.std = {0.2f, 0.25f, 0.3f};
    return m;
}

std::vector<TensorToWrite> scheme_tensors(const Model& m, const std::string& scheme, DType dtype, TimmPos timm_pos) {
    if (scheme == "timm") return timm_tensors(m, dtype, timm_pos);
    if (scheme == "hf-vit" || scheme == "hf-deit" || scheme == "hf-dino" || scheme == "dinov2")
        return hf_tensors(m, scheme, dtype);
    throw std::invalid_argument("unknown scheme " + scheme);
}

std::string config_json(const Model& m, const std::string& scheme) {
    const ModelConfig& c = m.config;
    json j;
    if (scheme == "timm") {
        j["architecture"] = c.name;
        j["num_classes"] = m.num_classes();
        j["global_pool"] = "token";
        j["model_args"] = {{"patch_size", m.patch},
                           {"embed_dim", m.dim},
                           {"depth", m.depth},
                           {"num_heads", m.heads},
                           {"mlp_ratio", static_cast<double>(m.mlp_dim) / m.dim}};
        if (m.num_registers) j["model_args"]["reg_tokens"] = m.num_registers;
        j["pretrained_cfg"] = {{"input_size", {3, c.pre.input_size, c.pre.input_size}},
                               {"interpolation", c.pre.interpolation},
                               {"crop_pct", c.pre.crop_pct},
                               {"crop_mode", "center"},
                               {"mean", c.pre.mean},
                               {"std", c.pre.std}};
        if (!c.labels.empty()) j["label_names"] = c.labels;
        return j.dump(2);
    }
    j["model_type"] = scheme == "hf-deit"  ? "deit"
                      : scheme == "dinov2" ? (m.num_registers ? "dinov2_with_registers" : "dinov2")
                                           : "vit";
    j["hidden_size"] = m.dim;
    j["num_hidden_layers"] = m.depth;
    j["num_attention_heads"] = m.heads;
    if (scheme == "dinov2") j["mlp_ratio"] = static_cast<double>(m.mlp_dim) / m.dim;
    else j["intermediate_size"] = m.mlp_dim;
    j["layer_norm_eps"] = c.ln_eps;
    j["image_size"] = c.image_size;
    j["patch_size"] = m.patch;
    j["num_channels"] = 3;
    j["hidden_act"] = c.gelu_tanh ? "gelu_pytorch_tanh" : "gelu";
    if (m.num_registers) j["num_register_tokens"] = m.num_registers;
    if (!c.labels.empty()) {
        json labels = json::object();
        for (size_t i = 0; i < c.labels.size(); ++i) labels[std::to_string(i)] = c.labels[i];
        j["id2label"] = labels;
    }
    return j.dump(2);
}

std::string preprocessor_json(const Model& m) {
    const PreprocessConfig& p = m.config.pre;
    const int resize = static_cast<int>(std::floor(p.input_size / static_cast<double>(p.crop_pct) + 1e-6));
    // BitImageProcessor: the processor that resizes the shorter side then crops, as the timm config does.
    json j = {{"image_processor_type", "BitImageProcessor"},
              {"image_mean", p.mean},
              {"image_std", p.std},
              {"resample", p.interpolation == "bilinear" ? 2 : 3},
              {"do_resize", true},
              {"size", {{"shortest_edge", resize}}},
              {"do_center_crop", true},
              {"crop_size", {{"height", p.input_size}, {"width", p.input_size}}},
              {"do_normalize", true}};
    return j.dump(2);
}

void write_checkpoint(const Model& m, const std::string& dir, const std::string& scheme, DType dtype,
                      TimmPos timm_pos) {
    std::filesystem::create_directories(dir);
    const std::filesystem::path d(dir);
    write_safetensors((d / "model.safetensors").string(), scheme_tensors(m, scheme, dtype, timm_pos));
    write_bytes((d / "config.json").string(), config_json(m, scheme));
    if (scheme != "timm") write_bytes((d / "preprocessor_config.json").string(), preprocessor_json(m));
}

std::vector<ParamView> parameters(const Model& m) {
    std::vector<ParamView> out;
    auto add = [&](const std::string& name, const auto& t) {
        out.push_back({name, t.data(), static_cast<long>(t.size())});
    };
    auto linear = [&](const std::string& name, const Linear& l) {
        add(name + ".w", l.w);
        add(name + ".b", l.b);
    };
    linear("patch_embed", m.patch_embed);
    add("cls", m.cls);
    add("dist", m.dist);
    add("registers", m.registers);
    add("pos", m.pos);
    for (size_t i = 0; i < m.blocks.size(); ++i) {
        const Block& b = m.blocks[i];
        const std::string p = "blocks[" + std::to_string(i) + "].";
        add(p + "ln1_w", b.ln1_w);
        add(p + "ln1_b", b.ln1_b);
        linear(p + "q", b.q);
        linear(p + "k", b.k);
        linear(p + "v", b.v);
        linear(p + "proj", b.proj);
        add(p + "ls1", b.ls1);
        add(p + "ln2_w", b.ln2_w);
        add(p + "ln2_b", b.ln2_b);
        linear(p + "fc1", b.fc1);
        linear(p + "fc2", b.fc2);
        add(p + "ls2", b.ls2);
    }
    add("norm_w", m.norm_w);
    add("norm_b", m.norm_b);
    linear("head", m.head);
    linear("head_dist", m.head_dist);
    return out;
}

Model rounded(const Model& m, DType dtype) {
    Model r = m;
    for (const ParamView& p : parameters(r)) {
        auto* data = const_cast<float*>(p.data);  // r is our own copy
        for (long i = 0; i < p.size; ++i) {
            if (dtype == DType::F16) data[i] = f16_to_f32(f32_to_f16(data[i]));
            if (dtype == DType::BF16) data[i] = bf16_to_f32(f32_to_bf16(data[i]));
        }
    }
    return r;
}

std::string first_difference(const Model& a, const Model& b, float tol) {
    auto sizes = [](const Model& m) {
        return std::vector<int>{m.dim,      m.depth,        m.heads,         m.head_dim,
                                m.patch,    m.mlp_dim,      m.num_registers, m.has_dist_token ? 1 : 0,
                                m.pos_grid, m.num_classes()};
    };
    if (sizes(a) != sizes(b))
        return "sizes differ (dim, depth, heads, head_dim, patch, mlp, registers, dist, grid, classes)";
    const std::vector<ParamView> pa = parameters(a), pb = parameters(b);
    for (size_t i = 0; i < pa.size(); ++i) {
        if (pa[i].size != pb[i].size)
            return pa[i].name + ": " + std::to_string(pa[i].size) + " vs " + std::to_string(pb[i].size) + " values";
        for (long k = 0; k < pa[i].size; ++k) {
            const float x = pa[i].data[k], y = pb[i].data[k];
            if (!(std::fabs(x - y) <= tol))
                return pa[i].name + "[" + std::to_string(k) + "]: " + std::to_string(x) + " vs " + std::to_string(y);
        }
    }
    return "";
}

void write_bytes(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + path);
}

std::string safetensors_bytes(const std::string& header, const std::string& data, int64_t header_len_override) {
    const uint64_t len = header_len_override >= 0 ? static_cast<uint64_t>(header_len_override) : header.size();
    std::string out(8, '\0');
    for (int i = 0; i < 8; ++i) out[i] = static_cast<char>((len >> (8 * i)) & 0xFF);
    return out + header + data;
}

}  // namespace vit::testing
