// AdamW as PyTorch's torch.optim.AdamW computes it (decoupled weight decay,
// bias-corrected moments), on the tiny ViT's tensors.
#pragma once
#include <vector>

#include "vit/train/backprop.h"

namespace vit::train {

struct AdamWSettings {
    double lr = 3e-4;
    double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
    double weight_decay = 0.05;  // on the weight matrices only (timm: not on biases, norms, cls, pos)
};

class AdamW {
public:
    AdamW(const TinyVit& model, const AdamWSettings& settings);
    // One update with these gradients at learning rate `lr`; tensors in
    // `frozen` (indices) are left as they are.
    void step(TinyVit& model, const Gradients& grads, double lr, const std::vector<int>& frozen = {});
    int steps() const { return t_; }

private:
    AdamWSettings s_;
    Gradients m_, v_;
    std::vector<bool> decay_;
    int t_ = 0;
};

}  // namespace vit::train
