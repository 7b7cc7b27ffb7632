// vitscope dump IMAGE -o DIR [--model DIR] [--size S]: the whole trace as .npy
// files (input, q, k, v, attn, logits, and pos_embed: the position embeddings
// at the run's grid, prefix rows first) plus meta.json, for the reference tests,
// and the decoded photo (photo.npy: height x width x 3 bytes, upright).
// With --class LABEL|INDEX also the backward pass of that class's logit:
// grad_attn.npy [L, H, N, N], grad_x_in.npy [L, N, dim] (each block's input)
// and grad_x_out.npy [N, dim] (the last block's output).
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "npy.h"
#include "pipeline.h"
#include "vit/base/atomic_file.h"
#include "vit/base/error.h"
#include "vit/forward/backward.h"
#include "vit/forward/classes.h"
#include "vit/model/pos_embed.h"

namespace app {
namespace {

// Stacks one per-head matrix of every layer and head into [L, H, rows, cols].
template <typename Pick>
std::string stack_heads(const vit::Trace& t, Pick pick) {
    const vit::Mat& first = pick(t.layers[0].heads[0]);
    const int64_t layers = t.layers.size(), heads = t.layers[0].heads.size();
    std::vector<float> all;
    all.reserve(layers * heads * first.size());
    for (const auto& layer : t.layers)
        for (const auto& head : layer.heads) {
            const vit::Mat& m = pick(head);
            all.insert(all.end(), m.data(), m.data() + m.size());
        }
    return encode_npy({layers, heads, first.rows(), first.cols()}, all.data());
}

}  // namespace

int cmd_dump(const CliArgs& args) {
    const std::string dir = args.get("--output");
    if (dir.empty()) throw vit::Error("dump needs -o DIR");
    Pipeline p = run_pipeline(args);
    std::optional<vit::Gradients> gradients;  // computed before anything is written
    if (args.has("--class")) gradients = vit::class_gradients(p.model, p.trace, vit::find_class(p.model, args.get("--class")));
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw vit::Error(dir + ": cannot create (" + ec.message() + ")");
    const vit::Trace& t = p.trace;
    const auto file = [&](const char* name) { return (std::filesystem::path(dir) / name).string(); };
    vit::write_file_atomic(file("photo.npy"), encode_npy({p.image.height, p.image.width, 3}, p.image.rgb.data()));
    vit::write_file_atomic(file("input.npy"), encode_npy({3, p.input.size, p.input.size}, p.input.chw.data()));
    vit::write_file_atomic(file("attn.npy"), stack_heads(t, [](const vit::HeadTrace& h) -> const vit::Mat& { return h.attn; }));
    vit::write_file_atomic(file("q.npy"), stack_heads(t, [](const vit::HeadTrace& h) -> const vit::Mat& { return h.q; }));
    vit::write_file_atomic(file("k.npy"), stack_heads(t, [](const vit::HeadTrace& h) -> const vit::Mat& { return h.k; }));
    vit::write_file_atomic(file("v.npy"), stack_heads(t, [](const vit::HeadTrace& h) -> const vit::Mat& { return h.v; }));
    vit::write_file_atomic(file("out.npy"), stack_heads(t, [](const vit::HeadTrace& h) -> const vit::Mat& { return h.out; }));
    const vit::Mat pos = vit::interpolate_pos_embed(p.model, t.grid);  // what the run added, at its grid
    vit::write_file_atomic(file("pos_embed.npy"), encode_npy({pos.rows(), pos.cols()}, pos.data()));
    if (t.logits.size())
        vit::write_file_atomic(file("logits.npy"), encode_npy({t.logits.size()}, t.logits.data()));
    if (gradients) {
        std::vector<float> attn, x_in;
        for (const auto& layer : gradients->attn)
            for (const vit::Mat& head : layer) attn.insert(attn.end(), head.data(), head.data() + head.size());
        for (const vit::Mat& x : gradients->x_in) x_in.insert(x_in.end(), x.data(), x.data() + x.size());
        const int64_t layers = t.layers.size(), heads = t.layers[0].heads.size(), dim = gradients->x_out.cols();
        vit::write_file_atomic(file("grad_attn.npy"), encode_npy({layers, heads, t.tokens, t.tokens}, attn.data()));
        vit::write_file_atomic(file("grad_x_in.npy"), encode_npy({layers, t.tokens, dim}, x_in.data()));
        vit::write_file_atomic(file("grad_x_out.npy"), encode_npy({t.tokens, dim}, gradients->x_out.data()));
    }
    char meta[512];
    std::snprintf(meta, sizeof meta,
                  "{\"grid\": %d, \"prefix\": %d, \"registers\": %d, \"tokens\": %d, \"layers\": %zu, "
                  "\"heads\": %zu, \"head_dim\": %d, "
                  "\"scheme\": \"%s\", \"crop\": [%.6f, %.6f, %.6f, %.6f], \"seconds\": %.6f}\n",
                  t.grid, t.prefix, t.registers, t.tokens, t.layers.size(), t.layers[0].heads.size(), t.head_dim,
                  p.model.scheme.c_str(), p.input.crop.x, p.input.crop.y, p.input.crop.w, p.input.crop.h, t.seconds);
    vit::write_file_atomic(file("meta.json"), meta);
    return 0;
}

}  // namespace app
