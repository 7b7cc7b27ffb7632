#include "app/dump_arrays.h"

#include <algorithm>
#include <set>

#include "app/npy.h"
#include "vit/analysis/block_parts.h"
#include "vit/base/error.h"
#include "vit/model/pos_embed.h"

namespace app {
namespace {

const std::vector<std::string> kDefault = {"photo", "input", "attn", "q", "k", "v", "out", "pos_embed", "logits"};
const std::vector<std::string> kGradients = {"grad_attn", "grad_x_in", "grad_x_out"};
const std::vector<std::string> kBlocks = {"residual_in",  "residual_out", "ln1", "attn_proj",
                                          "residual_mid", "ln2",          "mlp"};

void append(std::vector<float>& all, const vit::Mat& m) { all.insert(all.end(), m.data(), m.data() + m.size()); }

// One per-head matrix of every layer and head, stacked [layer, head, rows, cols].
template <typename Pick>
DumpArray heads_array(const vit::Trace& t, Pick pick, std::vector<std::string> axes, std::string units) {
    DumpArray a;
    a.axes = std::move(axes);
    a.units = std::move(units);
    const vit::Mat& first = pick(t.layers[0].heads[0]);
    a.shape = {static_cast<int64_t>(t.layers.size()), static_cast<int64_t>(t.layers[0].heads.size()), first.rows(),
               first.cols()};
    for (const auto& layer : t.layers)
        for (const auto& head : layer.heads) append(a.values, pick(head));
    return a;
}

// One N x dim matrix per layer, stacked [layer, token, feature].
template <typename Pick>
DumpArray layers_array(const vit::Trace& t, Pick pick, std::string units) {
    DumpArray a;
    a.axes = {"layer", "token", "feature"};
    a.units = std::move(units);
    for (size_t l = 0; l < t.layers.size(); ++l) {
        const vit::Mat m = pick(static_cast<int>(l));
        if (a.shape.empty()) a.shape = {static_cast<int64_t>(t.layers.size()), m.rows(), m.cols()};
        append(a.values, m);
    }
    return a;
}

vit::Mat block_part(const Pipeline& p, int layer, const std::string& name) {
    const vit::BlockParts parts = vit::block_parts(p.model, p.trace, layer);
    if (name == "ln1") return parts.ln1;
    if (name == "attn_proj") return parts.attn_branch;
    if (name == "residual_mid") return parts.mid;
    if (name == "ln2") return parts.ln2;
    return parts.mlp_branch;
}

}  // namespace

const std::vector<std::string>& all_dump_array_names() {
    static const std::vector<std::string> all = [] {
        std::vector<std::string> v = kDefault;
        v.insert(v.end(), kBlocks.begin(), kBlocks.end());
        v.insert(v.end(), kGradients.begin(), kGradients.end());
        return v;
    }();
    return all;
}

std::vector<std::string> dump_array_names(const std::string& wanted, bool with_class) {
    if (wanted.empty()) {
        std::vector<std::string> names = kDefault;
        if (with_class) names.insert(names.end(), kGradients.begin(), kGradients.end());
        return names;
    }
    const auto& all = all_dump_array_names();
    std::vector<std::string> names;
    std::set<std::string> seen;
    size_t from = 0;
    while (from <= wanted.size()) {
        const size_t end = std::min(wanted.find(',', from), wanted.size());
        const std::string name = wanted.substr(from, end - from);
        from = end + 1;
        if (std::find(all.begin(), all.end(), name) == all.end()) {
            std::string known;
            for (const std::string& k : all) known += (known.empty() ? "" : ",") + k;
            throw vit::Error("--arrays: unknown array '" + name.substr(0, 80) + "' (known: " + known + ")");
        }
        if (!seen.insert(name).second) throw vit::Error("--arrays names " + name + " twice");
        if (!with_class && name.rfind("grad_", 0) == 0)
            throw vit::Error("--arrays " + name +
                             " needs --class LABEL|INDEX (the class whose logit is differentiated)");
        names.push_back(name);
    }
    return names;
}

DumpArray make_dump_array(const std::string& name, const Pipeline& p, const vit::Gradients* g) {
    const vit::Trace& t = p.trace;
    DumpArray a;
    if (name == "photo") {
        a.axes = {"y", "x", "channel"};
        a.units = "sRGB byte 0..255, upright (EXIF orientation applied), channels R,G,B";
        a.shape = {p.image.height, p.image.width, 3};
        a.bytes.assign(p.image.rgb.begin(), p.image.rgb.end());
        a.is_photo = true;
    } else if (name == "input") {
        a.axes = {"channel", "y", "x"};
        a.units = "the model's input: pixel / 255 normalised by the model's mean and std";
        a.shape = {3, p.input.size, p.input.size};
        a.values.assign(p.input.chw.data(), p.input.chw.data() + 3 * p.input.size * p.input.size);
    } else if (name == "attn") {
        a = heads_array(
            t, [](const vit::HeadTrace& h) -> const vit::Mat& { return h.attn; }, {"layer", "head", "query", "key"},
            "softmax weight (each query's row sums to 1)");
    } else if (name == "q" || name == "k" || name == "v") {
        const char which = name[0];
        a = heads_array(
            t,
            [which](const vit::HeadTrace& h) -> const vit::Mat& {
                return which == 'q' ? h.q : which == 'k' ? h.k : h.v;
            },
            {"layer", "head", "token", "head_feature"}, "activation after the qkv projection (bias included)");
    } else if (name == "out") {
        a = heads_array(
            t, [](const vit::HeadTrace& h) -> const vit::Mat& { return h.out; },
            {"layer", "head", "query", "head_feature"}, "attention weights times v, before the output projection");
    } else if (name == "pos_embed") {
        const vit::Mat pos = vit::interpolate_pos_embed(p.model, t.grid);  // what the run added, at its grid
        a.axes = {"token", "feature"};
        a.units = "position embedding at the run's grid, prefix rows first";
        a.shape = {pos.rows(), pos.cols()};
        append(a.values, pos);
    } else if (name == "logits") {
        a.axes = {"class"};
        a.units = "logit (before the softmax)";
        a.shape = {t.logits.size()};
        a.values.assign(t.logits.data(), t.logits.data() + t.logits.size());
    } else if (name == "residual_in") {
        a = layers_array(
            t, [&](int l) { return t.layers[l].x_in; }, "residual stream entering the block");
    } else if (name == "residual_out") {
        const int last = static_cast<int>(t.layers.size()) - 1;
        a = layers_array(
            t, [&](int l) { return l < last ? t.layers[l + 1].x_in : t.last_block_out; },
            "residual stream leaving the block (the last: before the final LayerNorm)");
    } else if (name == "ln1" || name == "attn_proj" || name == "residual_mid" || name == "ln2" || name == "mlp") {
        const char* units = name == "ln1"         ? "LayerNorm 1's output: attention's input"
                            : name == "attn_proj" ? "attention's branch after the output projection (and layer scale)"
                            : name == "residual_mid" ? "residual stream after attention, before the MLP"
                            : name == "ln2"          ? "LayerNorm 2's output: the MLP's input"
                                                     : "the MLP's branch: fc2(GELU(fc1(ln2))) (times layer scale)";
        a = layers_array(
            t, [&](int l) { return block_part(p, l, name); }, units);
    } else if (g && name == "grad_attn") {
        a.axes = {"layer", "head", "query", "key"};
        a.units = "d logit[class] / d attention weight";
        a.shape = {static_cast<int64_t>(t.layers.size()), static_cast<int64_t>(t.layers[0].heads.size()), t.tokens,
                   t.tokens};
        for (const auto& layer : g->attn)
            for (const vit::Mat& head : layer) append(a.values, head);
    } else if (g && name == "grad_x_in") {
        a.axes = {"layer", "token", "feature"};
        a.units = "d logit[class] / d the block's input (residual_in)";
        a.shape = {static_cast<int64_t>(t.layers.size()), t.tokens, g->x_out.cols()};
        for (const vit::Mat& x : g->x_in) append(a.values, x);
    } else if (g && name == "grad_x_out") {
        a.axes = {"token", "feature"};
        a.units = "d logit[class] / d the last block's output (before the final LayerNorm)";
        a.shape = {t.tokens, g->x_out.cols()};
        append(a.values, g->x_out);
    } else {
        throw vit::Error("--arrays: " + name + " is not available here");
    }
    a.name = name;
    return a;
}

std::string encode_dump_array(const DumpArray& a, bool float16) {
    if (a.is_photo) return encode_npy(a.shape, a.bytes.data());
    return float16 ? encode_npy_half(a.shape, a.values.data()) : encode_npy(a.shape, a.values.data());
}

}  // namespace app
