// The tiny ViT that `vitscope train` trains from scratch: its sizes and its
// parameters, one float tensor each, named and shaped as timm names them
// (so a checkpoint is a model folder every page opens, see checkpoint_io.h).
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace vit::train {

// 64-byte aligned (EIGEN_MAX_ALIGN_BYTES), as every Mat: Eigen's vectorised sums
// peel to the alignment at run time, so unaligned buffers could sum in another order.
using Floats = std::vector<float, Eigen::aligned_allocator<float>>;

struct TinyVitConfig {
    int image = 64;  // input side, pixels
    int patch = 8;   // patch side: an 8 x 8 grid
    int dim = 64;    // token width
    int heads = 4;
    int depth = 4;
    int mlp = 256;  // MLP hidden width (4 x dim)
    int classes = 2;
    float ln_eps = 1e-6f;  // timm's LayerNorm eps
    bool position = true;  // false: position embeddings stay zero and are not trained

    int grid() const { return image / patch; }
    int patches() const { return grid() * grid(); }
    int tokens() const { return 1 + patches(); }
    int head_dim() const { return dim / heads; }
    int patch_inputs() const { return 3 * patch * patch; }
};

struct ParamTensor {
    std::string name;            // timm's: "blocks.0.attn.qkv.weight"
    std::vector<int64_t> shape;  // timm's: patch_embed.proj.weight is [dim, 3, p, p]
    Floats data;                 // row-major
};

// Index of each tensor in TinyVit::tensors.
enum Param : int {
    kPatchW,
    kPatchB,
    kCls,
    kPos,
    kFirstBlock,
};
enum BlockParam : int {
    kLn1W,
    kLn1B,
    kQkvW,
    kQkvB,
    kProjW,
    kProjB,
    kLn2W,
    kLn2B,
    kFc1W,
    kFc1B,
    kFc2W,
    kFc2B,
    kBlockParams
};

struct TinyVit {
    TinyVitConfig config;
    std::vector<ParamTensor> tensors;

    int block_param(int layer, BlockParam p) const { return kFirstBlock + layer * kBlockParams + p; }
    int norm_w() const { return kFirstBlock + config.depth * kBlockParams; }
    int norm_b() const { return norm_w() + 1; }
    int head_w() const { return norm_w() + 2; }
    int head_b() const { return norm_w() + 3; }
    long long parameter_count() const;
};

// Zero-filled tensors of the right names and shapes.
TinyVit make_tiny_vit(const TinyVitConfig& config);
// PyTorch's default initialisation of its layers (nn.Linear, nn.Conv2d):
// weights and biases uniform in +-1/sqrt(fan_in), LayerNorms 1 and 0; the
// class token and position embeddings normal of std 0.02 cut at 2 std (the
// position embeddings stay zero without position). timm's smaller std-0.02
// weights sat at chance for over 1,000 steps here.
void initialise(TinyVit& model, std::mt19937_64& rng);

}  // namespace vit::train
