// Forward pass of the default model (or VITSCOPE_MODEL's) with the full trace
// (what the explorer runs) and without it, at 224 and 448 px. Reports ms and
// effective GFLOP/s. Run: build/bench/vitscope_bench --benchmark_filter=Forward
// --benchmark_min_time=2 sets the seconds per case (a plain number in Google
// Benchmark 1.7; its default 0.5).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "vit/base/worker_pool.h"
#include "vit/formats/checkpoint.h"
#include "vit/forward/forward.h"
#include "vit/image/image.h"
#include "vit/image/preprocess.h"
#include "vit/kernels/kernels.h"
#include "vit/model/model.h"

namespace {

std::string model_dir() {
    if (const char* env = std::getenv("VITSCOPE_MODEL"); env && *env) return env;
    return std::string(VITSCOPE_SOURCE_DIR) + "/../shared/models/vit_tiny_patch16_224.augreg_in21k_ft_in1k";
}

const vit::Model& model() {
    static const vit::Model m = vit::load_model(model_dir());
    return m;
}

// Multiply-adds counted as two FLOPs: patch embedding, qkv, scores, weighted
// values, output projection and the MLP of every block.
double forward_flops(const vit::Model& m, int grid) {
    const double n = m.prefix_tokens() + grid * grid, d = m.dim, mlp = m.mlp_dim;
    const double per_block = 2 * (3 * n * d * d + 2 * n * n * d + n * d * d + 2 * n * d * mlp);
    return 2 * grid * grid * (3.0 * m.patch * m.patch) * d + m.depth * per_block;
}

void run_forward(benchmark::State& state, const vit::TraceOptions& options) {
    const int size = static_cast<int>(state.range(0));
    const vit::Image image = vit::load_image(std::string(VITSCOPE_SOURCE_DIR) + "/assets/dog.jpg");
    const vit::Input input = vit::preprocess(image, model().config.pre, size);
    double linear = 0, attention = 0;
    for (auto _ : state) {
        const vit::Trace t = vit::forward(model(), input, options);
        linear += t.linear_seconds;
        attention += t.attention_seconds;
    }
    // Where the time goes: the linear layers' products (with their GELU), the
    // attention (scores, softmax, weighted values, the trace's copies), the rest.
    state.counters["linear_ms"] = benchmark::Counter(linear * 1e3, benchmark::Counter::kAvgIterations);
    state.counters["attention_ms"] = benchmark::Counter(attention * 1e3, benchmark::Counter::kAvgIterations);
    const double flops = forward_flops(model(), size / model().patch);
    state.counters["GFLOP/s"] = benchmark::Counter(flops * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["tokens"] = model().prefix_tokens() + (size / model().patch) * (size / model().patch);
}

void BM_ForwardTrace(benchmark::State& state) { run_forward(state, vit::TraceOptions{}); }
void BM_ForwardPlain(benchmark::State& state) { run_forward(state, vit::TraceOptions{false, false, false}); }

BENCHMARK(BM_ForwardTrace)->Arg(224)->Arg(448)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ForwardPlain)->Arg(224)->Arg(448)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    // Which SIMD build ran, on how many threads: part of every result.
    benchmark::AddCustomContext("kernels", vit::kernel_isa());
    benchmark::AddCustomContext("threads", std::to_string(vit::WorkerPool::shared().threads()));
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
}
