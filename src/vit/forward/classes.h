// The classifier's answer: the classes a logit vector ranks highest, with their
// softmax probabilities, and their names.
#pragma once
#include <string>
#include <vector>

#include "vit/base/tensor.h"
#include "vit/forward/forward.h"
#include "vit/model/model.h"

namespace vit {

struct ClassProbability {
    int index = 0;
    double probability = 0;
};

// Softmax of the logits in double (numerically stable); empty for empty logits.
Eigen::VectorXd class_probabilities(const Vec& logits);
// The k most probable classes, most probable first (ties: lower index first).
std::vector<ClassProbability> rank_classes(const Vec& logits, int k);

// The label of class i ("class i" when unnamed).
std::string label_of(const Model& model, int cls);

// The class a person names: a whole number is an index (0 .. classes - 1),
// anything else a label, matched whole and ignoring case ("tabby, tabby cat"
// also answers to "tabby" and "tabby cat": timm's labels list synonyms
// separated by ", "). Throws vit::Error for an unknown name, an index out of
// range, or a model without a classifier.
int find_class(const Model& model, const std::string& name_or_index);

struct ClassScore {
    int index = 0;
    float probability = 0;
    std::string label;
};
// The k most probable classes (softmax of the logits), most probable first;
// empty when the model has no classifier.
std::vector<ClassScore> top_classes(const Model& model, const Trace& trace, int k);

}  // namespace vit
