// The linear layers' products alone, on weights packed once, for each kernel
// set this CPU runs (the Eigen reference packs on every product): GFLOP/s per
// shape, one thread. Run: build/bench/vitscope_bench --benchmark_filter=Gemm
// Beside them one head's attention, and the core's FMA rate (FmaPeak) they
// are measured against.
#include <benchmark/benchmark.h>
#include <immintrin.h>

#include <random>
#include <vector>

#include "vit/kernels/kernel_table.h"

namespace {

// args: tokens, output columns, input columns; the table by its index.
void BM_Gemm(benchmark::State& state, const vit::isa::KernelTable& (*table)()) {
    const vit::isa::KernelTable& t = table();
    if (!vit::isa::runs_here(t)) {
        state.SkipWithError("this CPU does not run these kernels");
        return;
    }
    const int m = static_cast<int>(state.range(0)), n = static_cast<int>(state.range(1)),
              k = static_cast<int>(state.range(2));
    std::mt19937 rng(1);
    std::normal_distribution<float> d;
    std::vector<float> a(static_cast<size_t>(m) * k), w(static_cast<size_t>(n) * k), bias(n),
        c(static_cast<size_t>(m) * n);
    for (auto* v : {&a, &w, &bias})
        for (float& x : *v) x = d(rng);
    std::vector<float> panels;
    if (t.panel_width) {
        panels.resize(t.panels_size(n, k));
        t.pack_nt(w.data(), k, n, k, panels.data());
    }
    std::vector<float> tiles(t.panel_width ? t.tiles_size(m, k) : 0);
    for (auto _ : state) {
        if (t.panel_width) {
            t.pack_tiles(a.data(), k, m, k, 0, (m + t.tile_rows - 1) / t.tile_rows, tiles.data());
            t.gemm_packed(tiles.data(), m, k, panels.data(), bias.data(), c.data(), n, n);
        } else {
            t.gemm_nt(a.data(), k, w.data(), k, bias.data(), 1.0f, c.data(), n, m, n, k);
        }
        benchmark::DoNotOptimize(c.data());
    }
    state.counters["GFLOP/s"] =
        benchmark::Counter(2.0 * m * n * k * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

void shapes(benchmark::internal::Benchmark* b) {
    b->ArgNames({"m", "n", "k"});
    for (const auto& s : std::vector<std::vector<int64_t>>{{197, 576, 192},
                                                           {197, 768, 192},
                                                           {197, 192, 768},
                                                           {785, 576, 192},
                                                           {785, 768, 192},
                                                           {785, 192, 768},
                                                           {197, 1152, 384},
                                                           {197, 3072, 768}})
        b->Args(s);
}

// One head's attention over all query rows (scores, softmax, weighted values),
// weights kept: tokens, model width (q, k, v's row stride), head dim 64.
void BM_Attention(benchmark::State& state, const vit::isa::KernelTable& (*table)()) {
    const vit::isa::KernelTable& t = table();
    if (!vit::isa::runs_here(t)) {
        state.SkipWithError("this CPU does not run these kernels");
        return;
    }
    const int n = static_cast<int>(state.range(0)), ld = static_cast<int>(state.range(1)), head_dim = 64;
    std::mt19937 rng(2);
    std::normal_distribution<float> d;
    std::vector<float> q(static_cast<size_t>(n) * ld), k(q.size()), v(q.size()), context(q.size()),
        weights(static_cast<size_t>(n) * n);
    for (auto* x : {&q, &k, &v})
        for (float& e : *x) e = d(rng);
    for (auto _ : state) {
        t.attention_rows(q.data(), k.data(), v.data(), ld, n, 0, head_dim, 0.125f, 0, n, weights.data(),
                         context.data());
        benchmark::DoNotOptimize(context.data());
    }
    state.counters["GFLOP/s"] =
        benchmark::Counter(4.0 * n * n * head_dim * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

#if defined(__AVX2__) && defined(__FMA__)
// This core's FMA rate, the ceiling for every product above: 12 independent
// chains of 8-lane fused multiply-adds kept in registers (2 flops a lane).
void BM_FmaPeak(benchmark::State& state) {
    __m256 a0 = _mm256_set1_ps(1.0f), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0, a8 = a0, a9 = a0,
           a10 = a0, a11 = a0;
    const __m256 m = _mm256_set1_ps(0.999999f), c = _mm256_set1_ps(1e-7f);
    constexpr int kSteps = 4096;
    for (auto _ : state) {
        for (int k = 0; k < kSteps; ++k) {
            a0 = _mm256_fmadd_ps(a0, m, c), a1 = _mm256_fmadd_ps(a1, m, c), a2 = _mm256_fmadd_ps(a2, m, c);
            a3 = _mm256_fmadd_ps(a3, m, c), a4 = _mm256_fmadd_ps(a4, m, c), a5 = _mm256_fmadd_ps(a5, m, c);
            a6 = _mm256_fmadd_ps(a6, m, c), a7 = _mm256_fmadd_ps(a7, m, c), a8 = _mm256_fmadd_ps(a8, m, c);
            a9 = _mm256_fmadd_ps(a9, m, c), a10 = _mm256_fmadd_ps(a10, m, c), a11 = _mm256_fmadd_ps(a11, m, c);
            // Keeps the chains in registers and every step in the loop.
            asm volatile(""
                         : "+x"(a0), "+x"(a1), "+x"(a2), "+x"(a3), "+x"(a4), "+x"(a5), "+x"(a6), "+x"(a7), "+x"(a8),
                           "+x"(a9), "+x"(a10), "+x"(a11));
        }
    }
    benchmark::DoNotOptimize(_mm256_add_ps(_mm256_add_ps(a0, a11), a5));
    state.counters["GFLOP/s"] =
        benchmark::Counter(kSteps * 12.0 * 16 * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_FmaPeak);
#endif

BENCHMARK_CAPTURE(BM_Attention, v4, vit::isa::table_v4)->ArgNames({"n", "ld"})->Args({197, 192})->Args({785, 192});
BENCHMARK_CAPTURE(BM_Attention, v3, vit::isa::table_v3)->ArgNames({"n", "ld"})->Args({197, 192})->Args({785, 192});
BENCHMARK_CAPTURE(BM_Attention, eigen, vit::isa::table_eigen)
    ->ArgNames({"n", "ld"})
    ->Args({197, 192})
    ->Args({785, 192});

BENCHMARK_CAPTURE(BM_Gemm, v4, vit::isa::table_v4)->Apply(shapes);
BENCHMARK_CAPTURE(BM_Gemm, v3, vit::isa::table_v3)->Apply(shapes);
BENCHMARK_CAPTURE(BM_Gemm, eigen, vit::isa::table_eigen)->Apply(shapes);

}  // namespace
