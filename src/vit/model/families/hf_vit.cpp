// transformers' ViT (model_type vit, ViTForImageClassification / ViTModel):
// the model prefix vit. (or none), separate query, key and value, a
// classifier; ViTImageProcessor. DeiT, DINO and DINOv2 start from this
// layout and change what differs; any Hugging Face layout they do not take
// is read as this one (it is tried last).
#include "vit/model/model_family.h"

namespace vit {

TensorNames hf_vit_tensor_names(const std::string& scheme, const std::string& p) {
    TensorNames n;
    n.scheme = scheme;
    n.cls = p + "embeddings.cls_token";
    n.dist = p + "embeddings.distillation_token";
    n.registers = p + "embeddings.register_tokens";
    n.pos = p + "embeddings.position_embeddings";
    n.patch_embed = p + "embeddings.patch_embeddings.projection";
    n.norm = p + "layernorm";
    n.head = "classifier";
    n.blocks = p + "encoder.layer.";
    n.q = "attention.attention.query";
    n.k = "attention.attention.key";
    n.v = "attention.attention.value";
    n.proj = "attention.output.dense";
    n.ln1 = "layernorm_before";
    n.ln2 = "layernorm_after";
    n.fc1 = "intermediate.dense";
    n.fc2 = "output.dense";
    n.ignored = {p + "embeddings.mask_token", p + "pooler."};  // pretraining mask; ViTModel's unused pooler
    return n;
}

namespace {

std::optional<TensorNames> hf_vit_layout(const HasTensor&, const std::string& prefix) {
    return hf_vit_tensor_names("hf-vit", prefix);
}

}  // namespace

const ModelFamily& hf_vit_family() {
    static const ModelFamily family{.name = "ViT (transformers)",
                                    .hf_model_types = {"vit"},
                                    .hf_processor = "ViTImageProcessor",
                                    .hf_layout = hf_vit_layout};
    return family;
}

}  // namespace vit
