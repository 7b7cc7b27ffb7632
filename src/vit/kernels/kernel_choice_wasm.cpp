// The browser build's choice of kernel table: WebAssembly SIMD128, which
// every browser that runs the build has (it is compiled with -msimd128), or
// Eigen's scalar path, the reference, when the page asks for it
// (VITSCOPE_ISA=eigen in the module's environment).
#include <cstdlib>
#include <string>

#include "vit/kernels/kernel_table.h"

namespace vit::isa {

bool runs_here(const KernelTable&) { return true; }

const KernelTable& pick_table() {
    const char* forced = std::getenv("VITSCOPE_ISA");
    return forced && std::string(forced) == "eigen" ? table_eigen() : table_simd128();
}

}  // namespace vit::isa
