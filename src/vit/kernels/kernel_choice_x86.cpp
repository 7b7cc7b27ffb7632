// The x86-64 builds' choice of kernel table: AVX-512, AVX2 + FMA, or Eigen,
// by what the CPU reports (VITSCOPE_ISA=v3 or eigen asks for a slower one).
#include <cstdlib>
#include <string>

#include "vit/kernels/kernel_table.h"

namespace vit::isa {

bool runs_here(const KernelTable& t) {
    __builtin_cpu_init();
    if (&t == &table_v4())
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
    if (&t == &table_v3()) return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    return true;
}

const KernelTable& pick_table() {
    const char* forced = std::getenv("VITSCOPE_ISA");
    const std::string want = forced ? forced : "";
    if (want != "v3" && want != "eigen" && runs_here(table_v4())) return table_v4();
    if (want != "eigen" && runs_here(table_v3())) return table_v3();
    return table_eigen();
}

}  // namespace vit::isa
