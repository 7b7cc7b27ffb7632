#include "vit/train/adamw.h"

#include <algorithm>
#include <cmath>

namespace vit::train {

AdamW::AdamW(const TinyVit& model, const AdamWSettings& settings)
    : s_(settings), m_(zero_gradients(model)), v_(zero_gradients(model)) {
    for (const ParamTensor& t : model.tensors)
        decay_.push_back(t.shape.size() >= 2 && t.name != "cls_token" && t.name != "pos_embed");
}

void AdamW::step(TinyVit& model, const Gradients& grads, double lr, const std::vector<int>& frozen) {
    ++t_;
    const double c1 = 1.0 - std::pow(s_.beta1, t_), c2 = 1.0 - std::pow(s_.beta2, t_);
    for (size_t i = 0; i < model.tensors.size(); ++i) {
        if (std::find(frozen.begin(), frozen.end(), static_cast<int>(i)) != frozen.end()) continue;
        Floats& p = model.tensors[i].data;
        const Floats& g = grads[i];
        Floats& m = m_[i];
        Floats& v = v_[i];
        const float decay = decay_[i] ? static_cast<float>(1.0 - lr * s_.weight_decay) : 1.f;
        const float b1 = static_cast<float>(s_.beta1), b2 = static_cast<float>(s_.beta2);
        const float step = static_cast<float>(lr / c1), root_c2 = static_cast<float>(std::sqrt(c2));
        const float eps = static_cast<float>(s_.eps);
        for (size_t j = 0; j < p.size(); ++j) {
            p[j] *= decay;
            m[j] = b1 * m[j] + (1.f - b1) * g[j];
            v[j] = b2 * v[j] + (1.f - b2) * g[j] * g[j];
            p[j] -= step * m[j] / (std::sqrt(v[j]) / root_c2 + eps);
        }
    }
}

}  // namespace vit::train
