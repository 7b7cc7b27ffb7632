// The classes a logit vector ranks highest, with their softmax probabilities
// (shared by the logit lens and head ablation).
#pragma once
#include <vector>

#include "tensor.h"

namespace vit {

struct ClassProbability {
    int index = 0;
    double probability = 0;
};

// Softmax of the logits in double (numerically stable).
Eigen::VectorXd class_probabilities(const Vec& logits);
// The k most probable classes, most probable first (ties: lower index first).
std::vector<ClassProbability> top_classes(const Vec& logits, int k);

}  // namespace vit
