#include "vit/analysis/relevant_query.h"

#include <algorithm>
#include <numeric>
#include <set>

#include "vit/analysis/relevance.h"
#include "vit/analysis/token_norms.h"
#include "vit/base/error.h"
#include "vit/forward/backward.h"
#include "vit/forward/classes.h"

namespace vit {

RelevantQuery choose_relevant_query(const Trace& t, const Eigen::VectorXd& relevance,
                                    const std::vector<int>& high_norm) {
    const int patches = t.grid * t.grid;
    if (relevance.size() != patches)
        throw Error("the relevance map has " + std::to_string(relevance.size()) + " values for " +
                    std::to_string(patches) + " patches");
    std::vector<int> order(patches);  // patch indices, the most relevant first
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return relevance[a] > relevance[b]; });
    RelevantQuery out;
    out.quarter = (patches + 3) / 4;
    // In the top quarter: fewer than a quarter of the patches more relevant (ties at the cut are all in).
    const double cut = relevance[order[out.quarter - 1]];
    const auto in_quarter = [&](int p) { return relevance[p] >= cut; };
    for (int p : order)
        if (in_quarter(p)) out.relevant.push_back(t.prefix + p);

    const std::set<int> left_out(high_norm.begin(), high_norm.end());
    const auto on_border = [&](int p) {
        return p / t.grid == 0 || p % t.grid == 0 || p / t.grid == t.grid - 1 || p % t.grid == t.grid - 1;
    };
    int chosen = -1, border_choice = -1, any_choice = -1;
    for (int i = 0; i < patches && chosen < 0; ++i) {
        if (left_out.count(t.prefix + order[i])) continue;
        if (any_choice < 0) any_choice = i;
        if (!in_quarter(order[i])) continue;
        if (!on_border(order[i])) chosen = i;
        else if (border_choice < 0) border_choice = i;
    }
    if (chosen < 0) chosen = border_choice >= 0 ? border_choice : any_choice;
    if (chosen < 0) return out;
    out.token = t.prefix + order[chosen];
    out.rank = 1 + static_cast<int>((relevance.array() > relevance[order[chosen]]).count());
    out.in_quarter = in_quarter(order[chosen]);
    out.on_border = on_border(order[chosen]);
    return out;
}

std::vector<int> high_norm_anywhere(const Trace& t) {
    // Entering the first block, then leaving each block (what enters the next): every layer's once.
    const std::vector<int> embedded = high_norm_entering(t, 0);
    std::set<int> tokens(embedded.begin(), embedded.end());
    for (const LayerNorms& leaving : token_norms(t)) tokens.insert(leaving.high.begin(), leaving.high.end());
    return {tokens.begin(), tokens.end()};
}

RelevantQueryChoice relevant_query(const Model& model, const Trace& t) {
    const std::vector<ClassScore> top = top_classes(model, t, 1);
    if (top.empty()) throw Error("the model has no classifier: no answer to find the relevant patches for");
    RelevantQueryChoice out;
    out.target_class = top[0].index;
    out.probability = top[0].probability;
    out.label = top[0].label;
    const Gradients g = class_gradients(model, t, out.target_class);
    out.relevance = gradient_rollout(t, g);
    out.query = choose_relevant_query(t, out.relevance, high_norm_anywhere(t));
    return out;
}

}  // namespace vit
