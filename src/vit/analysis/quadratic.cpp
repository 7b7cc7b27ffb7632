#include "vit/analysis/quadratic.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "vit/base/error.h"
#include "vit/base/worker_pool.h"
#include "vit/image/preprocess.h"

namespace vit {
namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

AttentionSize attention_size(const Model& m, int input_size) {
    AttentionSize s;
    s.input_size = input_size;
    s.grid = m.patch > 0 ? input_size / m.patch : 0;
    s.tokens = m.prefix_tokens() + s.grid * s.grid;
    s.weights_per_head = static_cast<long long>(s.tokens) * s.tokens;
    s.attention_weights = static_cast<long long>(m.blocks.size()) * m.heads * s.weights_per_head;
    s.attention_bytes = s.attention_weights * static_cast<long long>(sizeof(float));
    return s;
}

BlockFlops block_flops(const Model& m, int tokens) {
    const double n = tokens, d = m.dim, mlp = m.mlp_dim;
    return {2 * n * (4 * d * d + 2 * d * mlp), 4 * n * n * d};
}

double theoretical_crossover_tokens(const Model& m) { return 2.0 * m.dim + m.mlp_dim; }

double input_size_for_tokens(const Model& m, double tokens) {
    return m.patch * std::sqrt(std::max(0.0, tokens - m.prefix_tokens()));
}

std::vector<int> default_timing_sizes(const Model& m) {
    std::vector<int> sizes;
    for (int s : {224, 288, 352, 448, 512, 640}) {
        const int rounded = std::max(1, static_cast<int>(std::lround(static_cast<double>(s) / m.patch))) * m.patch;
        if (sizes.empty() || sizes.back() != rounded) sizes.push_back(rounded);
    }
    return sizes;
}

TimingRun measure_forward_times(const Model& model, const Image& photo, const std::vector<int>& sizes, int repeats,
                                const TaskControl& control, const TraceOptions& options) {
    if (repeats < 1) throw Error("at least one forward pass per size");
    for (int size : sizes) check_input_size(model, size, options);
    TimingRun out;
    out.threads = WorkerPool::threads_here();
    const int total = static_cast<int>(sizes.size()) * repeats;
    int done = 0;
    for (int size : sizes) {
        const Input input = preprocess(photo, model.config.pre, size);
        std::vector<double> linear, attention, whole;
        for (int r = 0; r < repeats; ++r) {
            if (control.cancelled()) return out.cancelled = true, out;
            const Trace t = forward(model, input, options);
            linear.push_back(t.linear_seconds);
            attention.push_back(t.attention_seconds);
            whole.push_back(t.seconds);
            control.report(++done, total);
        }
        out.points.push_back({size, model.prefix_tokens() + (size / model.patch) * (size / model.patch), median(linear),
                              median(attention), median(whole)});
    }
    return out;
}

CostFit fit_costs(const std::vector<TimingPoint>& points) {
    // Minimising sum (y - a x)^2 gives a = sum(x y) / sum(x^2); here x = N for
    // the linear layers and x = N^2 for the attention.
    double nl = 0, nn = 0, n2a = 0, n4 = 0;
    for (const TimingPoint& p : points) {
        const double n = p.tokens;
        nl += n * p.linear_seconds;
        nn += n * n;
        n2a += n * n * p.attention_seconds;
        n4 += n * n * n * n;
    }
    CostFit f;
    f.linear_per_token = nn > 0 ? nl / nn : 0;
    f.attention_per_token2 = n4 > 0 ? n2a / n4 : 0;
    f.crossover_tokens = f.attention_per_token2 > 0 ? f.linear_per_token / f.attention_per_token2 : 0;
    return f;
}

}  // namespace vit
