// DeiT in transformers' layout (model_type deit, the model prefix deit., a
// distillation token beside CLS). Distilled with its teacher's head
// (DeiTForImageClassificationWithTeacher): cls_classifier and
// distillation_classifier, the logits their mean. DeiTImageProcessor
// (resize to 256, centre crop 224). timm's deit_* are timm's layout (timm.cpp).
#include "vit/model/model_family.h"

namespace vit {
namespace {

std::optional<TensorNames> deit_layout(const HasTensor& has, const std::string& prefix) {
    if (!has(prefix + "embeddings.distillation_token") && prefix != "deit.") return std::nullopt;
    TensorNames n = hf_vit_tensor_names("hf-deit", prefix);
    if (has("cls_classifier.weight")) {
        n.head = "cls_classifier";
        n.head_dist = "distillation_classifier";
    }
    return n;
}

}  // namespace

const ModelFamily& deit_family() {
    static const ModelFamily family{.name = "DeiT",
                                    .hf_model_types = {"deit"},
                                    .hf_processor = "DeiTImageProcessor",
                                    .hf_layout = deit_layout};
    return family;
}

}  // namespace vit
