#include "vit/analysis/side_by_side.h"

#include <algorithm>

#include "vit/base/error.h"

namespace vit {
namespace {

float patch_max(const Trace& t, const Vec& row) {
    if (row.size() != t.tokens)
        throw Error("a weight row of " + std::to_string(row.size()) + " values for " + std::to_string(t.tokens) +
                    " tokens");
    return t.tokens > t.prefix ? row.tail(t.tokens - t.prefix).maxCoeff() : 0.f;
}

}  // namespace

float shared_patch_max(const Trace& a, const Vec& row_a, const Trace& b, const Vec& row_b) {
    const float top = std::max(patch_max(a, row_a), patch_max(b, row_b));
    return top > 0 ? top : 1.f;
}

}  // namespace vit
