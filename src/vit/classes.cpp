#include "classes.h"

#include <algorithm>

#include "analysis.h"

namespace vit {

std::vector<ClassScore> top_classes(const Model& model, const Trace& trace, int k) {
    std::vector<ClassScore> all;
    if (trace.logits.size() == 0) return all;
    const Vec p = softmax(trace.logits);
    for (int i = 0; i < p.size(); ++i) all.push_back({i, p[i], label_of(model, i)});
    k = std::min<int>(k, static_cast<int>(all.size()));
    std::partial_sort(all.begin(), all.begin() + k, all.end(),
                      [](const ClassScore& a, const ClassScore& b) { return a.probability > b.probability; });
    all.resize(k);
    return all;
}

std::string label_of(const Model& model, int cls) {
    const auto& labels = model.config.labels;
    return cls < static_cast<int>(labels.size()) ? labels[cls] : "class " + std::to_string(cls);
}

}  // namespace vit
