#include "vit/analysis/divergence.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "vit/analysis/attention_rows.h"
#include "vit/base/error.h"

namespace vit {

double jensen_shannon(const Vec& p, const Vec& q) {
    if (p.size() != q.size() || p.size() == 0)
        throw Error("rows of " + std::to_string(p.size()) + " and " + std::to_string(q.size()) +
                    " entries cannot be compared");
    if (p.minCoeff() < 0 || q.minCoeff() < 0) throw Error("a distribution has a negative entry");
    const Eigen::VectorXd a = p.cast<double>() / p.cast<double>().sum(), b = q.cast<double>() / q.cast<double>().sum();
    if (!a.allFinite() || !b.allFinite()) throw Error("a distribution sums to zero");
    double kl_a = 0, kl_b = 0;  // KL(a || m), KL(b || m); 0 log 0 = 0
    for (Eigen::Index j = 0; j < a.size(); ++j) {
        const double m = 0.5 * (a[j] + b[j]);
        if (a[j] > 0) kl_a += a[j] * std::log2(a[j] / m);
        if (b[j] > 0) kl_b += b[j] * std::log2(b[j] / m);
    }
    return std::max(0.0, 0.5 * (kl_a + kl_b));  // rounding can leave -1e-17 for equal rows
}

double attention_jsd(const Trace& a, const Trace& b, int layer, int head, int query) {
    if (a.grid != b.grid || a.tokens != b.tokens || a.prefix != b.prefix)
        throw Error("the two photos' traces differ in size (" + std::to_string(a.tokens) + " and " +
                    std::to_string(b.tokens) + " tokens): run both at the same input size");
    return jensen_shannon(attention_row(a, layer, head, query), attention_row(b, layer, head, query));
}

}  // namespace vit
