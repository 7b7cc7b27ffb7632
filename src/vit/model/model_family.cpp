// The registry of model families: each is defined in its own file in
// families/ and listed here, in the order their weights' layouts are tried.
#include "vit/model/model_family.h"

namespace vit {

// One per file in families/.
const ModelFamily& timm_family();
const ModelFamily& dinov2_family();
const ModelFamily& deit_family();
const ModelFamily& dino_family();
const ModelFamily& hf_vit_family();

std::span<const ModelFamily* const> model_families() {
    static const ModelFamily* const all[] = {&timm_family(), &dinov2_family(), &deit_family(), &dino_family(),
                                             &hf_vit_family()};
    return all;
}

const ModelFamily* family_of_model_type(const std::string& model_type) {
    for (const ModelFamily* f : model_families())
        for (const std::string& t : f->hf_model_types)
            if (t == model_type) return f;
    return nullptr;
}

const ModelFamily* family_of_timm_architecture(const std::string& architecture) {
    for (const ModelFamily* f : model_families())
        if (f->is_timm_architecture && f->is_timm_architecture(architecture)) return f;
    return nullptr;
}

std::string model_type_of_architecture(const std::string& architecture) {
    for (const ModelFamily* f : model_families())
        for (const auto& [prefix, model_type] : f->hf_architectures)
            if (architecture.rfind(prefix, 0) == 0) return model_type;
    return "";
}

}  // namespace vit
