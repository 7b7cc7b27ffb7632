#include "vit/forward/classes.h"

#include <algorithm>

#include <numeric>

namespace vit {

Eigen::VectorXd class_probabilities(const Vec& logits) {
    if (logits.size() == 0) return {};
    const Eigen::VectorXd z = logits.cast<double>();
    const Eigen::VectorXd e = (z.array() - z.maxCoeff()).exp();
    return e / e.sum();
}

std::vector<ClassProbability> rank_classes(const Vec& logits, int k) {
    const Eigen::VectorXd p = class_probabilities(logits);
    std::vector<int> order(p.size());
    std::iota(order.begin(), order.end(), 0);
    k = std::clamp(k, 0, static_cast<int>(order.size()));
    std::partial_sort(order.begin(), order.begin() + k, order.end(),
                      [&](int a, int b) { return p[a] > p[b] || (p[a] == p[b] && a < b); });
    std::vector<ClassProbability> top;
    for (int i = 0; i < k; ++i) top.push_back({order[i], p[order[i]]});
    return top;
}

std::vector<ClassScore> top_classes(const Model& model, const Trace& trace, int k) {
    std::vector<ClassScore> top;
    for (const ClassProbability& c : rank_classes(trace.logits, k))
        top.push_back({c.index, static_cast<float>(c.probability), label_of(model, c.index)});
    return top;
}

std::string label_of(const Model& model, int cls) {
    const auto& labels = model.config.labels;
    return cls < static_cast<int>(labels.size()) ? labels[cls] : "class " + std::to_string(cls);
}

}  // namespace vit
