#include "session/homework/page_rows.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "vit/analysis/attention_rows.h"
#include "vit/forward/half_tokens.h"

namespace session {
namespace {

constexpr double kHalfUnitRoundoff = 1.0 / 2048;           // 2^-11
constexpr double kHalfSubnormalHalfStep = 1.0 / 33554432;  // 2^-25
constexpr double kFloatUnitRoundoff = 1.0 / 16777216;      // 2^-24

double as_page(float x) { return vit::from_half_bits(vit::to_half_bits(x)); }

}  // namespace

PageRow page_row(const vit::Trace& t, int layer, int head, int query) {
    const vit::HeadTrace& h = vit::head_trace(t, layer, head);
    const int n = t.tokens, d = t.head_dim;
    const double u = kHalfUnitRoundoff, eta = kHalfSubnormalHalfStep, u32 = kFloatUnitRoundoff;
    const double sqrt_dk = std::sqrt(static_cast<double>(d));
    PageRow r;
    r.scaled.resize(n), r.weight.resize(n), r.bound.resize(n);
    std::vector<double> q(d), score_error(n), magnitude_scaled(n);
    for (int x = 0; x < d; ++x) q[x] = as_page(h.q(query, x));
    double max_scaled = -INFINITY, max_abs_scaled = 0;
    for (int j = 0; j < n; ++j) {
        double s = 0, half = 0, magnitude = 0;
        for (int x = 0; x < d; ++x) {
            const double kv = as_page(h.k(j, x));
            const double qt = std::abs(q[x]), kt = std::abs(kv);
            const double Q = (qt + eta) / (1 - u), K = (kt + eta) / (1 - u);
            half += (u * Q + eta) * K + qt * (u * K + eta);
            magnitude += Q * K;
            s += q[x] * kv;
        }
        r.scaled[j] = s / sqrt_dk;
        max_scaled = std::max(max_scaled, r.scaled[j]);
        score_error[j] = (half + d * u32 * magnitude) / sqrt_dk;
        magnitude_scaled[j] = std::abs(r.scaled[j]) + score_error[j];
        max_abs_scaled = std::max(max_abs_scaled, magnitude_scaled[j]);
    }
    double z = 0;
    for (int j = 0; j < n; ++j) z += r.weight[j] = std::exp(r.scaled[j] - max_scaled);
    for (int j = 0; j < n; ++j) r.weight[j] /= z;
    for (int j = 0; j < n; ++j)
        r.epsilon = std::max(r.epsilon, score_error[j] + 4 * u32 * (magnitude_scaled[j] + max_abs_scaled));
    const double grow = std::exp(2 * r.epsilon), float_softmax = (n + 8) * u32;
    for (int j = 0; j < n; ++j) {
        const double app_max = r.weight[j] * grow * (1 + float_softmax);
        r.bound[j] = app_max * (grow - 1) + app_max * float_softmax;
    }
    return r;
}

std::vector<int> page_top_keys(const vit::Trace& t, const ExerciseAnswer& a) {
    const int n = t.tokens;
    std::vector<double> value(n, 0), slack(n, 0);
    double top_slack = 0;
    int top = 0;
    if (!a.mean) {
        const PageRow r = page_row(t, a.layer, a.head, a.query);
        value = r.scaled;
        for (int j = 1; j < n; ++j)
            if (value[j] > value[top]) top = j;
        std::fill(slack.begin(), slack.end(), r.epsilon), top_slack = r.epsilon;
    } else {
        const int heads = static_cast<int>(t.layers.at(static_cast<size_t>(a.layer)).heads.size());
        for (int h = 0; h < heads; ++h) {
            const PageRow r = page_row(t, a.layer, h, a.query);
            for (int j = 0; j < n; ++j) value[j] += r.weight[j] / heads, slack[j] += r.bound[j] / heads;
        }
        for (int j = 1; j < n; ++j)
            if (value[j] > value[top]) top = j;
        top_slack = slack[top];
    }
    std::vector<int> accepted;
    for (int j = 0; j < n; ++j)
        if (value[top] - value[j] <= top_slack + slack[j]) accepted.push_back(j);
    std::sort(accepted.begin(), accepted.end(),
              [&](int x, int y) { return value[x] != value[y] ? value[x] > value[y] : x < y; });
    return accepted;
}

}  // namespace session
