#include "vit/analysis/scaling.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include "vit/analysis/attention_rows.h"
#include "vit/base/error.h"
#include "vit/base/worker_pool.h"

namespace vit {
namespace {

// Every raw score q_i.k_j of one head, N x N.
Mat all_raw_scores(const Trace& t, int layer, int head) {
    const HeadTrace& h = head_trace(t, layer, head);
    if (h.q.size() == 0) throw Error("this trace was run without Q and K");
    return h.q * h.k.transpose();
}

double inv_sqrt_dk(const Trace& t) { return 1.0 / std::sqrt(static_cast<double>(t.head_dim)); }

struct MeanStd {
    double mean = 0, std = 0;
};
// Population mean and std of all entries times `scale`, in double (two passes).
MeanStd mean_std(const Mat& m, double scale) {
    const double n = static_cast<double>(m.size());
    double sum = 0;
    for (Eigen::Index i = 0; i < m.size(); ++i) sum += m.data()[i] * scale;
    const double mean = sum / n;
    double sq = 0;
    for (Eigen::Index i = 0; i < m.size(); ++i) {
        const double d = m.data()[i] * scale - mean;
        sq += d * d;
    }
    return {mean, std::sqrt(sq / n)};
}

// The largest weight of softmax(row * scale): 1 / sum_j exp(scale (s_j - max s)).
double max_softmax_weight(const float* row, Eigen::Index n, double scale) {
    const double top = *std::max_element(row, row + n);
    double sum = 0;
    for (Eigen::Index j = 0; j < n; ++j) sum += std::exp(scale * (row[j] - top));
    return 1.0 / sum;
}

Eigen::VectorXd softmax_double(const Eigen::VectorXd& s) {
    const Eigen::VectorXd e = (s.array() - s.maxCoeff()).exp();
    return e / e.sum();
}

// Standard normals from mt19937 by Box-Muller (both outputs used).
class Normals {
public:
    explicit Normals(uint32_t seed) : gen_(seed) {}
    double next() {
        if (spare_) {
            spare_ = false;
            return second_;
        }
        const double u1 = (static_cast<double>(gen_()) + 1.0) / 4294967296.0;  // (0, 1]
        const double u2 = static_cast<double>(gen_()) / 4294967296.0;          // [0, 1)
        const double r = std::sqrt(-2.0 * std::log(u1)), angle = 2.0 * M_PI * u2;
        second_ = r * std::sin(angle);
        spare_ = true;
        return r * std::cos(angle);
    }

private:
    std::mt19937 gen_;
    double second_ = 0;
    bool spare_ = false;
};

}  // namespace

ScoreHistogram score_histogram(const Trace& t, int layer, int head, int bins) {
    if (bins < 1) throw Error("a histogram needs at least one bin");
    const Mat raw = all_raw_scores(t, layer, head);
    const double scale = inv_sqrt_dk(t);
    ScoreHistogram h;
    const MeanStd r = mean_std(raw, 1.0), s = mean_std(raw, scale);
    h.raw_mean = r.mean;
    h.raw_std = r.std;
    h.scaled_mean = s.mean;
    h.scaled_std = s.std;
    const double raw_min = raw.minCoeff(), raw_max = raw.maxCoeff();
    double lo = std::min(raw_min, raw_min * scale), hi = std::max(raw_max, raw_max * scale);
    if (!(hi > lo)) lo -= 0.5, hi += 0.5;  // every score equal: one bin of width 1 around it
    for (int b = 0; b <= bins; ++b) h.edges.push_back(lo + (hi - lo) * b / bins);
    h.raw_counts.assign(bins, 0);
    h.scaled_counts.assign(bins, 0);
    const auto bin_of = [&](double x) {
        return std::clamp(static_cast<int>((x - lo) / (hi - lo) * bins), 0, bins - 1);
    };
    for (Eigen::Index i = 0; i < raw.size(); ++i) {
        ++h.raw_counts[bin_of(raw.data()[i])];
        ++h.scaled_counts[bin_of(raw.data()[i] * scale)];
    }
    return h;
}

double softmax_jacobian_norm(const Eigen::VectorXd& a) {
    const double s2 = a.squaredNorm(), s3 = a.array().cube().sum();
    return std::sqrt(std::max(0.0, s2 - 2.0 * s3 + s2 * s2));
}

SoftmaxSharpness softmax_sharpness(const Eigen::VectorXd& a) {
    SoftmaxSharpness s;
    s.max_weight = a.maxCoeff();
    s.spread_keys = effective_keys(a);
    s.jacobian_norm = softmax_jacobian_norm(a);
    return s;
}

QueryScaling query_scaling(const Trace& t, int layer, int head, int query) {
    const Eigen::VectorXd raw = raw_scores(t, layer, head, query).cast<double>();
    QueryScaling q;
    q.scaled = softmax_sharpness(attention_row(t, layer, head, query).cast<double>());
    q.raw = softmax_sharpness(softmax_double(raw));
    q.layer = layer, q.head = head;
    q.unscaled = unscaled_top_weight(t, layer, head, query);
    q.saturates = claim_holds(ClaimKind::UnscaledTopWeight, q.unscaled, kSaturatedWeight);
    return q;
}

std::string query_scaling_sentence(const QueryScaling& q) {
    char jacobian[200];
    std::snprintf(jacobian, sizeof jacobian, "the Jacobian's norm would be %.3f instead of %.3f%s", q.raw.jacobian_norm,
                  q.scaled.jacobian_norm,
                  q.raw.jacobian_norm < q.scaled.jacobian_norm
                      ? ", so less gradient would flow back through this row"
                      : ": not smaller, so the gradient through this row would not shrink");
    return "For the selected query in layer " + std::to_string(q.layer) + ", head " + std::to_string(q.head) +
           ": without the division " + unscaled_top_weight_clause(q.unscaled) + ", and " + jacobian + ".";
}

ScalingTable scaling_table(const Trace& t, double threshold) {
    const int layers = static_cast<int>(t.layers.size()),
              heads = layers ? static_cast<int>(t.layers[0].heads.size()) : 0;
    ScalingTable table;
    for (Eigen::MatrixXd* m : {&table.raw_std, &table.scaled_std, &table.saturated_raw, &table.saturated_scaled})
        m->setZero(layers, heads);
    const double scale = inv_sqrt_dk(t);
    for (const LayerTrace& layer : t.layers)  // checked here: the pool's tasks must not throw
        for (const HeadTrace& h : layer.heads)
            if (h.q.size() == 0 || h.attn.size() == 0)
                throw Error("this trace was run without Q, K and attention weights");
    WorkerPool::shared().run(layers * heads, [&](int task) {
        const int l = task / heads, h = task % heads;
        const HeadTrace& ht = t.layers[l].heads[h];
        const Mat raw = ht.q * ht.k.transpose();
        const Mat& attn = ht.attn;
        table.raw_std(l, h) = mean_std(raw, 1.0).std;
        table.scaled_std(l, h) = mean_std(raw, scale).std;
        int raw_saturated = 0, scaled_saturated = 0;
        for (Eigen::Index i = 0; i < raw.rows(); ++i) {
            raw_saturated += max_softmax_weight(raw.row(i).data(), raw.cols(), 1.0) > threshold;
            scaled_saturated += attn.row(i).maxCoeff() > threshold;
        }
        table.saturated_raw(l, h) = static_cast<double>(raw_saturated) / raw.rows();
        table.saturated_scaled(l, h) = static_cast<double>(scaled_saturated) / raw.rows();
    });
    return table;
}

std::vector<DotProductSpread> dot_product_control(const std::vector<int>& dims, int samples, uint32_t seed) {
    if (samples < 2) throw Error("the dot-product control needs at least 2 samples");
    std::vector<DotProductSpread> out;
    for (int d : dims) {
        if (d < 1) throw Error("d_k must be positive, got " + std::to_string(d));
        Normals normal(seed);  // each d_k from the same seed: reproducible one by one
        std::vector<double> dots(samples);
        for (double& dot : dots) {
            dot = 0;
            for (int c = 0; c < d; ++c) dot += normal.next() * normal.next();
        }
        double mean = 0;
        for (double x : dots) mean += x / samples;
        double sq = 0;
        for (double x : dots) sq += (x - mean) * (x - mean);
        out.push_back({d, samples, std::sqrt(sq / (samples - 1)), std::sqrt(static_cast<double>(d))});
    }
    return out;
}

bool near_unit_spread(double scaled_std) {
    return scaled_std >= 1.0 / kUnitSpreadFactor && scaled_std <= kUnitSpreadFactor;
}

ScalingSummary scaling_summary(const ScalingTable& table) {
    ScalingSummary r;
    const Eigen::MatrixXd& s = table.scaled_std;
    r.heads = static_cast<int>(s.size());
    if (!r.heads) return r;
    r.min_scaled_std = s.minCoeff(), r.max_scaled_std = s.maxCoeff();
    for (Eigen::Index i = 0; i < s.size(); ++i) r.near_unit += near_unit_spread(s.data()[i]);
    r.saturated_raw = table.saturated_raw.mean();
    r.saturated_scaled = table.saturated_scaled.mean();
    return r;
}

}  // namespace vit
