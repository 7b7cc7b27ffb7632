#include "vit/analysis/position.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "vit/base/error.h"
#include "vit/forward/forward.h"

namespace vit {
namespace {

// The patch rows of the embeddings at this grid, each scaled to unit length
// (zero rows stay zero, so their cosines are 0).
Eigen::MatrixXd unit_patch_embeddings(const Model& m, int grid) {
    if (grid <= 0) throw Error("the patch grid must have at least one patch");
    const Mat pos = interpolate_pos_embed(m, grid);
    const Eigen::Index patches = static_cast<Eigen::Index>(grid) * grid;
    if (pos.rows() < patches) throw Error("the model has no position embedding per patch");
    Eigen::MatrixXd u = pos.bottomRows(patches).cast<double>();
    for (Eigen::Index p = 0; p < patches; ++p)
        if (const double n = u.row(p).norm(); n > 0) u.row(p) /= n;
    return u;
}

}  // namespace

Mat position_similarity(const Model& m, int grid) {
    const Eigen::MatrixXd u = unit_patch_embeddings(m, grid);
    return (u * u.transpose()).cast<float>();
}

Vec position_similarity_row(const Model& m, int grid, int row, int col) {
    if (row < 0 || col < 0 || row >= grid || col >= grid)
        throw Error("position " + std::to_string(row) + "," + std::to_string(col) + " is outside the " +
                    std::to_string(grid) + " x " + std::to_string(grid) + " grid");
    const Eigen::MatrixXd u = unit_patch_embeddings(m, grid);
    return (u * u.row(static_cast<Eigen::Index>(row) * grid + col).transpose()).cast<float>();
}

PositionStructure position_structure(const Mat& similarity, int grid) {
    const int n = grid * grid;
    if (grid <= 0 || similarity.rows() != n || similarity.cols() != n)
        throw Error("position similarity is not " + std::to_string(n) + " x " + std::to_string(n));
    double sum[5] = {}, count[5] = {};  // neighbours, far, far same row, far same column, far other
    auto add = [&](int k, double v) { sum[k] += v, count[k] += 1; };
    for (int p = 0; p < n; ++p)
        for (int q = 0; q < n; ++q) {
            const int dr = std::abs(p / grid - q / grid), dc = std::abs(p % grid - q % grid);
            const int d = std::max(dr, dc);
            const double v = similarity(p, q);
            if (d == 1) add(0, v);
            if (d < kFarPositions) continue;
            add(1, v);
            add(dr == 0 ? 2 : dc == 0 ? 3 : 4, v);
        }
    auto mean = [&](int k) { return count[k] > 0 ? sum[k] / count[k] : 0.0; };
    return {mean(0), mean(1), mean(2), mean(3), mean(4)};
}

}  // namespace vit
