// Eigen types used across the library. Row-major so that one token's vector
// (one row) is contiguous, as in PyTorch's [tokens, features] layout.
#pragma once
#include <Eigen/Core>

namespace vit {

using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vec = Eigen::VectorXf;  // column vector
using RowVec = Eigen::RowVectorXf;

}  // namespace vit
