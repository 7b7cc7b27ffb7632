// vitscope info [--model DIR]: what the model folder holds and how it is run.
#include <cstdio>
#include <string>

#include "app/subcommands.h"
#include "app/pipeline.h"
#include "vit/formats/checkpoint.h"
#include "vit/forward/token_name.h"
#include "vit/kernels/kernels.h"
#include "vit/model/labels.h"
#include "vit/model/pos_embed.h"

namespace app {

int cmd_info(const CliArgs& args) {
    const std::string dir = resolve_model_dir(args);
    const vit::Model m = vit::load_model(dir);
    const vit::PreprocessConfig& pre = m.config.pre;
    const int grid = pre.input_size / m.patch;
    std::printf("model: %s\n", dir.c_str());
    std::printf("architecture: %s\n", m.config.name.c_str());
    std::printf("weights: %s (%s)\n", m.weights_file.c_str(), m.weights_format.c_str());
    std::printf("naming scheme: %s\n", m.scheme.c_str());
    std::printf("layers: %d\nheads: %d\nhead dim: %d\nwidth: %d\nmlp width: %d\npatch: %d\n", m.depth, m.heads,
                m.head_dim, m.dim, m.mlp_dim, m.patch);
    if (!m.config.heads_from.empty()) std::printf("heads from: %s\n", m.config.heads_from.c_str());
    std::string prefix_names;
    for (int i = 0; i < m.prefix_tokens(); ++i)
        prefix_names += (i ? ", " : "") + vit::prefix_token_name(i, m.has_dist_token ? 1 : 0, m.num_registers);
    std::printf("prefix tokens: %d (%s)\n", m.prefix_tokens(), prefix_names.c_str());
    std::printf("tokens: %d (%d x %d patches at %d px)\n", m.prefix_tokens() + grid * grid, grid, grid, pre.input_size);
    std::printf("position embeddings: %d x %d patches (%d px); other grids: %s\n", m.pos_grid, m.pos_grid,
                m.pos_grid * m.patch, vit::describe_pos_resize(m.config.pos_resize).c_str());
    std::printf("layer scale: %s\n", !m.blocks.empty() && m.blocks[0].ls1.size() ? "yes" : "no");
    std::printf("parameters: %lld\n", m.parameter_count());
    std::printf("kernels: %s (VITSCOPE_ISA=v3 or eigen picks a slower set)\n", vit::kernel_isa());
    std::printf("classes: %d%s\n", m.num_classes(), m.num_classes() ? "" : " (no classifier head)");
    if (m.num_classes() > 0) {
        std::string names = m.config.labels_source;
        if (names.empty() && m.num_classes() == vit::kImageNet21kClasses)
            names = "none (\"class N\"): vitscope ships no names for ImageNet-21k's 21843 classes";
        else if (names.empty()) names = "none (\"class N\"): the config names no classes";
        std::printf("class names: %s\n", names.c_str());
    }
    std::printf("layer norm eps: %g\ngelu: %s\n", m.config.ln_eps, m.config.gelu_tanh ? "tanh" : "erf");
    std::printf("preprocessing: %s\n", vit::describe_preprocessing(pre).c_str());
    if (pre.hf && !pre.hf->defaults_note.empty())
        std::printf("preprocessing note: %s\n", pre.hf->defaults_note.c_str());
    return 0;
}

}  // namespace app
