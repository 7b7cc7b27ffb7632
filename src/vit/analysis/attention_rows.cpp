#include "vit/analysis/attention_rows.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "vit/base/error.h"

namespace vit {

const HeadTrace& head_trace(const Trace& t, int layer, int head) {
    if (layer < 0 || layer >= static_cast<int>(t.layers.size()))
        throw Error("layer " + std::to_string(layer) + " is out of range (0.." + std::to_string(t.layers.size() - 1) +
                    ")");
    const auto& heads = t.layers[layer].heads;
    if (head < 0 || head >= static_cast<int>(heads.size()))
        throw Error("head " + std::to_string(head) + " is out of range (0.." + std::to_string(heads.size() - 1) + ")");
    return heads[head];
}

namespace {

const HeadTrace& values_of(const Trace& t, int layer, int head) {
    const HeadTrace& h = head_trace(t, layer, head);
    if (h.v.rows() != t.tokens) throw Error("this trace was run without V");
    return h;
}

}  // namespace

void check_query_token(const Trace& t, int query) {
    if (query < 0 || query >= t.tokens)
        throw Error("query token " + std::to_string(query) + " is out of range (0.." + std::to_string(t.tokens - 1) +
                    ")");
}

Vec raw_scores(const Trace& t, int layer, int head, int query) {
    const HeadTrace& h = head_trace(t, layer, head);
    check_query_token(t, query);
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
    const HeadTrace& h = head_trace(t, layer, head);
    check_query_token(t, query);
    if (h.attn.size() == 0) throw Error("this trace was run without attention weights");
    return h.attn.row(query).transpose();
}

Vec mean_attention_row(const Trace& t, int layer, const std::vector<int>& heads, int query) {
    if (heads.empty()) throw Error("no heads selected");
    Vec sum = Vec::Zero(t.tokens);
    for (int h : heads) sum += attention_row(t, layer, h, query);
    return sum / static_cast<float>(heads.size());
}

Vec weighted_sum_of_values(const Trace& t, int layer, int head, const Vec& weights) {
    const HeadTrace& h = values_of(t, layer, head);
    if (weights.size() != t.tokens)
        throw Error("weight row has " + std::to_string(weights.size()) + " entries, the trace has " +
                    std::to_string(t.tokens) + " tokens");
    return h.v.transpose() * weights;
}

std::vector<Contribution> top_contributions(const Trace& t, int layer, int head, const Vec& weights, int count) {
    const HeadTrace& h = values_of(t, layer, head);
    if (weights.size() != t.tokens) throw Error("weight row does not match the trace's token count");
    std::vector<Contribution> all(t.tokens);
    double total = 0;
    for (int j = 0; j < t.tokens; ++j) {
        const float norm = h.v.row(j).norm();
        all[j] = {j, weights[j], norm, std::abs(weights[j]) * norm, 0.f};
        total += all[j].amount;
    }
    for (Contribution& c : all) c.share = total > 0 ? static_cast<float>(c.amount / total) : 0.f;
    const int n = std::clamp(count, 0, t.tokens);
    std::partial_sort(all.begin(), all.begin() + n, all.end(),
                      [](const Contribution& a, const Contribution& b) { return a.amount > b.amount; });
    all.resize(n);
    return all;
}

RowSummary summarize_row(const Vec& w) {
    RowSummary s;
    if (w.size() == 0) return s;
    s.sum = std::accumulate(w.data(), w.data() + w.size(), 0.0);
    Eigen::Index arg = 0;
    s.max = w.maxCoeff(&arg);
    s.argmax = static_cast<int>(arg);
    s.min = w.minCoeff();
    s.effective_keys = effective_keys(w.data(), w.size());
    return s;
}

namespace {
template <typename T>
double effective_keys_of(const T* w, Eigen::Index n) {
    double sum = 0, squares = 0;
    for (Eigen::Index j = 0; j < n; ++j) {
        if (w[j] < 0) return 0;
        sum += w[j];
        squares += static_cast<double>(w[j]) * w[j];
    }
    return sum > 0 ? sum * sum / squares : 0;
}
}  // namespace

double effective_keys(const float* w, Eigen::Index n) { return effective_keys_of(w, n); }
double effective_keys(const Eigen::VectorXd& w) { return effective_keys_of(w.data(), w.size()); }

}  // namespace vit
