#include "vit/analysis/head_ablation.h"

#include <limits>
#include <string>

#include "vit/base/error.h"

namespace vit {
namespace {

// The forward without a trace (the ablation runs need only the logits).
TraceOptions plain_forward(int layer = -1, int head = -1) {
    TraceOptions o;
    o.keep_qkv = o.keep_attention = o.keep_states = false;
    o.ablate_layer = layer;
    o.ablate_head = head;
    return o;
}

void require_classifier(const Model& m) {
    if (m.head.w.size() == 0) throw Error("this model has no classifier head");
}

}  // namespace

Vec logits_without_head(const Model& model, const Input& input, int layer, int head) {
    require_classifier(model);
    return forward(model, input, plain_forward(layer, head)).logits;
}

HeadRemoved remove_head(const Model& model, const Input& input, const Vec& real_logits, int layer, int head, int k) {
    require_classifier(model);
    if (real_logits.size() != model.num_classes()) throw Error("the model's own logits are missing");
    HeadRemoved r;
    const Vec logits = logits_without_head(model, input, layer, head);
    r.before = rank_classes(real_logits, k);
    r.after = rank_classes(logits, k);
    r.top1_change = class_probabilities(logits)[r.before[0].index] - r.before[0].probability;
    return r;
}

AblationTable ablation_table(const Model& model, const Input& input, const TaskControl& control) {
    require_classifier(model);
    const int layers = static_cast<int>(model.blocks.size()), heads = model.heads, total = 1 + layers * heads;
    AblationTable table;
    table.top1_change.setConstant(layers, heads, std::numeric_limits<double>::quiet_NaN());
    if (control.cancelled()) return table.cancelled = true, table;
    const std::vector<ClassProbability> top = rank_classes(forward(model, input, plain_forward()).logits, 1);
    table.top1_class = top[0].index;
    table.top1_probability = top[0].probability;
    control.report(1, total);
    for (int l = 0; l < layers; ++l)
        for (int h = 0; h < heads; ++h) {
            if (control.cancelled()) return table.cancelled = true, table;
            const Eigen::VectorXd p = class_probabilities(logits_without_head(model, input, l, h));
            table.top1_change(l, h) = p[table.top1_class] - table.top1_probability;
            ++table.done;
            control.report(1 + table.done, total);
        }
    return table;
}

}  // namespace vit
