// The classifier's answer in words: class names and the most probable classes.
#pragma once
#include <string>
#include <vector>

#include "forward.h"
#include "model.h"

namespace vit {

// The label of class i ("class i" when unnamed).
std::string label_of(const Model& model, int cls);

struct ClassScore {
    int index = 0;
    float probability = 0;
    std::string label;
};
// The k most probable classes (softmax of the logits), most probable first;
// empty when the model has no classifier.
std::vector<ClassScore> top_classes(const Model& model, const Trace& trace, int k);

}  // namespace vit
