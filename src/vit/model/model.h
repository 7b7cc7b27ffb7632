// The canonical in-memory ViT that every naming scheme loads into.
// Linear layers follow PyTorch: weight is [out, in], y = x W^T + b.
#pragma once
#include <string>
#include <vector>

#include "vit/base/tensor.h"
#include "vit/model/config.h"
#include "vit/model/packed_panels.h"

namespace vit {

struct Linear {
    Mat w;                // out x in
    Vec b;                // out
    PackedPanels packed;  // w as the fast kernels read it (pack_weights in kernels.h); empty until packed
};

struct Block {
    Vec ln1_w, ln1_b;
    Linear q, k, v;  // each dim x dim; head h owns rows [h*dh, (h+1)*dh)
    Linear proj;
    Vec ls1;  // layer scale (DINOv2); empty when the model has none
    Vec ln2_w, ln2_b;
    Linear fc1, fc2;
    Vec ls2;
};

struct Model {
    ModelConfig config;
    std::string scheme;          // "timm", "hf-vit", "hf-deit", "hf-dino", "dinov2"
    std::string weights_file;    // the file the weights were read from
    std::string weights_format;  // its format in words ("safetensors", "PyTorch zip checkpoint ...")
    int dim = 0, depth = 0, heads = 0, head_dim = 0, patch = 16, mlp_dim = 0;
    int num_registers = 0;  // register tokens, placed after CLS (and distillation)
    bool has_dist_token = false;
    Linear patch_embed;  // w: dim x (3*patch*patch), each row flattened [c][y][x]
    RowVec cls;          // dim
    RowVec dist;         // dim, when has_dist_token
    Mat registers;       // num_registers x dim
    Mat pos;             // (prefix + grid*grid) x dim, prefix = CLS (+dist); registers get none
    int pos_grid = 0;    // the grid the position embeddings were trained for
    std::vector<Block> blocks;
    Vec norm_w, norm_b;
    Linear head;       // num_classes x dim; empty w when the checkpoint has no classifier
    Linear head_dist;  // DeiT distilled: logits = (head(cls) + head_dist(dist)) / 2

    int prefix_tokens() const { return 1 + (has_dist_token ? 1 : 0) + num_registers; }
    int num_classes() const { return static_cast<int>(head.w.rows()); }
    long long parameter_count() const;
};

}  // namespace vit
