// DINO (facebook/dino-*): transformers' ViTModel with model_type vit, no
// model prefix and no classifier; the config is read as a ViT's.
#include "vit/model/model_family.h"

namespace vit {
namespace {

std::optional<TensorNames> dino_layout(const HasTensor& has, const std::string& prefix) {
    if (!prefix.empty() || has("classifier.weight")) return std::nullopt;
    return hf_vit_tensor_names("hf-dino", prefix);
}

}  // namespace

const ModelFamily& dino_family() {
    static const ModelFamily family{.name = "DINO", .hf_layout = dino_layout};
    return family;
}

}  // namespace vit
