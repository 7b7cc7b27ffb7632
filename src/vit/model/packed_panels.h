// A linear layer's weights in the layout the fast GEMM kernels read
// (kernel_table.h's pack_nt), packed once when the model loads rather than on
// every product.
#pragma once
#include "vit/base/tensor.h"

namespace vit {

struct PackedPanels {
    Vec data;                       // panels of `width` output columns, each k rows of `width` floats
    int width = 0;                  // 0: not packed
    const float* source = nullptr;  // the weights packed: a copied matrix has other data and is packed on the fly
};

}  // namespace vit
