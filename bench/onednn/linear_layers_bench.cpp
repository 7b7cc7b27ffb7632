// What packing the weights once would buy: the linear layers of one ViT-Ti
// forward at 224 px (12 blocks of qkv, proj, fc1, fc2 on 197 tokens) through
// vitscope's Eigen path (vit::linear: weights re-packed on every product) and
// through oneDNN's matmul on weights reordered once into its blocked layout.
// Not part of vitscope; built with -DVITSCOPE_BENCH_ONEDNN=ON (needs
// libdnnl-dev). Both on the same threads: VITSCOPE_THREADS and OMP_NUM_THREADS.
//   build/bench/onednn/linear_layers_bench --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <algorithm>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include "vit/kernels/kernels.h"

namespace {

constexpr int kTokens = 197, kBlocks = 12;
struct Shape {
    int in, out;
};
const Shape kShapes[] = {{192, 576}, {192, 192}, {192, 768}, {768, 192}};  // qkv, proj, fc1, fc2

double linear_flops() {
    double f = 0;
    for (Shape s : kShapes) f += 2.0 * kTokens * s.in * s.out * kBlocks;
    return f;
}

void report(benchmark::State& state) {
    state.counters["GFLOP/s"] =
        benchmark::Counter(linear_flops() * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_LinearLayersEigen(benchmark::State& state) {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);  // as vit::run does
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    std::vector<vit::Linear> layers;
    std::vector<vit::Mat> in, out;
    for (int b = 0; b < kBlocks; ++b)
        for (Shape s : kShapes) {
            vit::Linear l;
            l.w = vit::Mat::Random(s.out, s.in);
            l.b = vit::Vec::Random(s.out);
            layers.push_back(l);
            in.push_back(vit::Mat::Random(kTokens, s.in));
            out.emplace_back();
        }
    for (auto _ : state)
        for (size_t i = 0; i < layers.size(); ++i) vit::linear(in[i], layers[i], out[i]);
    report(state);
}

void BM_LinearLayersOneDnnPacked(benchmark::State& state) {
    using namespace dnnl;
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    struct Layer {
        matmul product;
        memory src, weights, bias, dst;
    };
    std::vector<Layer> layers;
    for (int b = 0; b < kBlocks; ++b)
        for (Shape sh : kShapes) {
            using dt = memory::data_type;
            using tag = memory::format_tag;
            const memory::desc src_md({kTokens, sh.in}, dt::f32, tag::ab), dst_md({kTokens, sh.out}, dt::f32, tag::ab);
            const memory::desc bias_md({1, sh.out}, dt::f32, tag::ab);
            const memory::desc w_rows({sh.in, sh.out}, dt::f32, tag::ba);  // W as stored: out x in, row-major
            const matmul::primitive_desc pd(matmul::desc(src_md, memory::desc({sh.in, sh.out}, dt::f32, tag::any),
                                                         bias_md, dst_md),
                                            eng);
            memory src(src_md, eng), w_plain(w_rows, eng), w(pd.weights_desc(), eng), bias(bias_md, eng),
                dst(dst_md, eng);
            std::fill_n(static_cast<float*>(src.get_data_handle()), kTokens * sh.in, 0.01f);
            std::fill_n(static_cast<float*>(w_plain.get_data_handle()), sh.in * sh.out, 0.02f);
            std::fill_n(static_cast<float*>(bias.get_data_handle()), sh.out, 0.1f);
            reorder(w_plain, w).execute(s, w_plain, w);  // once, as at model load
            layers.push_back({matmul(pd), src, w, bias, dst});
        }
    s.wait();
    for (auto _ : state) {
        for (Layer& l : layers)
            l.product.execute(s, {{DNNL_ARG_SRC, l.src},
                                  {DNNL_ARG_WEIGHTS, l.weights},
                                  {DNNL_ARG_BIAS, l.bias},
                                  {DNNL_ARG_DST, l.dst}});
        s.wait();
    }
    report(state);
}

BENCHMARK(BM_LinearLayersEigen)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_LinearLayersOneDnnPacked)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);

}  // namespace

BENCHMARK_MAIN();
