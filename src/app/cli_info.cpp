// vitscope info [--model DIR]: what the model folder holds and how it is run.
#include <cstdio>
#include <string>

#include "commands.h"
#include "pipeline.h"

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
    std::printf("prefix tokens: %d (CLS%s%s)\n", m.prefix_tokens(), m.has_dist_token ? " + distillation" : "",
                m.num_registers ? (" + " + std::to_string(m.num_registers) + " registers").c_str() : "");
    std::printf("tokens: %d (%d x %d patches at %d px)\n", m.prefix_tokens() + grid * grid, grid, grid,
                pre.input_size);
    std::printf("parameters: %lld\n", m.parameter_count());
    std::printf("classes: %d\n", m.num_classes());
    std::printf("layer norm eps: %g\ngelu: %s\n", m.config.ln_eps, m.config.gelu_tanh ? "tanh" : "erf");
    std::printf("preprocessing: resize shorter side to %d (%s, crop_pct %.3f), centre crop %d, mean %.4f %.4f %.4f, std %.4f %.4f %.4f\n",
                vit::resize_side(pre, pre.input_size), pre.interpolation.c_str(), pre.crop_pct,
                pre.input_size, pre.mean[0], pre.mean[1], pre.mean[2], pre.std[0], pre.std[1], pre.std[2]);
    return 0;
}

}  // namespace app
