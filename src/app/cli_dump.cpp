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
#include "output_rules.h"
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

constexpr const char* kFiles[] = {"photo.npy", "input.npy", "attn.npy", "q.npy",        "k.npy",
                                  "v.npy",     "out.npy",   "pos_embed.npy", "logits.npy", "meta.json"};

}  // namespace

int cmd_dump(const CliArgs& args) {
    const std::string dir = args.get("--output");
    if (dir.empty()) throw vit::Error("dump needs -o DIR");
    const auto file = [&](const char* name) { return (std::filesystem::path(dir) / name).string(); };
    // The output rule, before any work: its files replace earlier ones only with --force.
    const vit::OutputRules rules = output_rules(args);
    std::error_code ec;
    if (std::filesystem::exists(dir, ec))
        for (const char* name : kFiles) vit::check_output(file(name), rules);
    if (args.has("--class") && std::filesystem::exists(dir, ec))
        for (const char* name : {"grad_attn.npy", "grad_x_in.npy", "grad_x_out.npy"}) vit::check_output(file(name), rules);
    Pipeline p = run_pipeline(args);
    std::optional<vit::Gradients> gradients;  // computed before anything is written
    if (args.has("--class")) gradients = vit::class_gradients(p.model, p.trace, vit::find_class(p.model, args.get("--class")));
    std::filesystem::create_directories(dir, ec);
    if (ec) throw vit::Error(dir + ": cannot create (" + ec.message() + ")");
    const vit::Trace& t = p.trace;
    const auto write = [&](const std::string& path, const std::string& bytes) { vit::write_output(path, bytes, rules); };
    write(file("photo.npy"), encode_npy({p.image.height, p.image.width, 3}, p.image.rgb.data()));
    write(file("input.npy"), encode_npy({3, p.input.size, p.input.size}, p.input.chw.data()));
    write(file("attn.npy"), stack_heads(t, [](const vit::HeadTrace& h) -> const vit::Mat& { return h.attn; }));
    write(file("q.npy"), stack_heads(t, [](const vit::HeadTrace& h) -> const vit::Mat& { return h.q; }));
    write(file("k.npy"), stack_heads(t, [](const vit::HeadTrace& h) -> const vit::Mat& { return h.k; }));
    write(file("v.npy"), stack_heads(t, [](const vit::HeadTrace& h) -> const vit::Mat& { return h.v; }));
    write(file("out.npy"), stack_heads(t, [](const vit::HeadTrace& h) -> const vit::Mat& { return h.out; }));
    const vit::Mat pos = vit::interpolate_pos_embed(p.model, t.grid);  // what the run added, at its grid
    write(file("pos_embed.npy"), encode_npy({pos.rows(), pos.cols()}, pos.data()));
    if (t.logits.size())
        write(file("logits.npy"), encode_npy({t.logits.size()}, t.logits.data()));
    if (gradients) {
        std::vector<float> attn, x_in;
        for (const auto& layer : gradients->attn)
            for (const vit::Mat& head : layer) attn.insert(attn.end(), head.data(), head.data() + head.size());
        for (const vit::Mat& x : gradients->x_in) x_in.insert(x_in.end(), x.data(), x.data() + x.size());
        const int64_t layers = t.layers.size(), heads = t.layers[0].heads.size(), dim = gradients->x_out.cols();
        write(file("grad_attn.npy"), encode_npy({layers, heads, t.tokens, t.tokens}, attn.data()));
        write(file("grad_x_in.npy"), encode_npy({layers, t.tokens, dim}, x_in.data()));
        write(file("grad_x_out.npy"), encode_npy({t.tokens, dim}, gradients->x_out.data()));
    }
    char meta[512];
    std::snprintf(meta, sizeof meta,
                  "{\"grid\": %d, \"prefix\": %d, \"registers\": %d, \"tokens\": %d, \"layers\": %zu, "
                  "\"heads\": %zu, \"head_dim\": %d, "
                  "\"scheme\": \"%s\", \"crop\": [%.6f, %.6f, %.6f, %.6f], \"seconds\": %.6f}\n",
                  t.grid, t.prefix, t.registers, t.tokens, t.layers.size(), t.layers[0].heads.size(), t.head_dim,
                  p.model.scheme.c_str(), p.input.crop.x, p.input.crop.y, p.input.crop.w, p.input.crop.h, t.seconds);
    write(file("meta.json"), meta);
    return 0;
}

}  // namespace app
