#include "analysis.h"

#include <cmath>
#include <string>

#include "error.h"

namespace vit {
namespace {

const HeadTrace& head_of(const Trace& t, int layer, int head) {
    if (layer < 0 || layer >= static_cast<int>(t.layers.size()))
        throw Error("layer " + std::to_string(layer) + " is out of range (0.." + std::to_string(t.layers.size() - 1) + ")");
    const auto& heads = t.layers[layer].heads;
    if (head < 0 || head >= static_cast<int>(heads.size()))
        throw Error("head " + std::to_string(head) + " is out of range (0.." + std::to_string(heads.size() - 1) + ")");
    return heads[head];
}

void check_query(const Trace& t, int query) {
    if (query < 0 || query >= t.tokens)
        throw Error("query token " + std::to_string(query) + " is out of range (0.." + std::to_string(t.tokens - 1) + ")");
}

}  // namespace

const HeadTrace& checked_head(const Trace& t, int layer, int head) { return head_of(t, layer, head); }
void check_query_token(const Trace& t, int query) { check_query(t, query); }

Vec raw_scores(const Trace& t, int layer, int head, int query) {
    const HeadTrace& h = head_of(t, layer, head);
    check_query(t, query);
    if (h.q.size() == 0) throw Error("this trace was run without Q and K");
    return h.k * h.q.row(query).transpose();
}

Vec scaled_scores(const Trace& t, int layer, int head, int query) {
    return raw_scores(t, layer, head, query) / std::sqrt(static_cast<float>(t.head_dim));
}

Vec softmax(const Vec& scores) {
    Vec e = (scores.array() - scores.maxCoeff()).exp();
    return e / e.sum();
}

Vec attention_row(const Trace& t, int layer, int head, int query) {
    const HeadTrace& h = head_of(t, layer, head);
    check_query(t, query);
    if (h.attn.size() == 0) throw Error("this trace was run without attention weights");
    return h.attn.row(query).transpose();
}

Vec mean_attention_row(const Trace& t, int layer, const std::vector<int>& heads, int query) {
    if (heads.empty()) throw Error("no heads selected");
    Vec sum = Vec::Zero(t.tokens);
    for (int h : heads) sum += attention_row(t, layer, h, query);
    return sum / static_cast<float>(heads.size());
}

}  // namespace vit
