#include "vit/forward/classes.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <numeric>

#include "vit/base/error.h"

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

namespace {

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// The label itself and each of its ", "-separated synonyms.
bool label_matches(const std::string& label, const std::string& wanted) {
    const std::string l = lower(label);
    if (l == wanted) return true;
    size_t start = 0;
    while (start <= l.size()) {
        const size_t comma = std::min(l.find(", ", start), l.size());
        if (l.substr(start, comma - start) == wanted) return true;
        start = comma + 2;
    }
    return false;
}

}  // namespace

int find_class(const Model& model, const std::string& text) {
    const int classes = model.num_classes();
    if (classes == 0) throw Error("this model has no classifier: there are no classes to choose from");
    if (text.empty())
        throw Error("--class needs a class name or index, e.g. --class 207 or --class 'golden retriever'");
    const bool digits = std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
    if (digits) {
        const long index = text.size() > 9 ? -1 : std::strtol(text.c_str(), nullptr, 10);
        if (index < 0 || index >= classes)
            throw Error("class index " + text + " is out of range (0.." + std::to_string(classes - 1) + ")");
        return static_cast<int>(index);
    }
    const std::string wanted = lower(text);
    for (int c = 0; c < classes; ++c)
        if (label_matches(label_of(model, c), wanted)) return c;
    throw Error("unknown class '" + text + "' (give a label of this model, e.g. '" + label_of(model, 0) +
                "', or an index 0.." + std::to_string(classes - 1) + ")");
}

}  // namespace vit
