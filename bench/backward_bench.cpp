// The backward pass of one class's logit (vit::class_gradients: every layer's
// d logit / d attention weights and token states) beside the forward pass with
// the full trace it starts from, on the default model and dog.jpg at 224 px.
// Run: build/bench/vitscope_bench --benchmark_filter='Backward|ForwardTrace/224'
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "vit/formats/checkpoint.h"
#include "vit/forward/backward.h"
#include "vit/forward/classes.h"
#include "vit/forward/forward.h"
#include "vit/image/image.h"
#include "vit/image/preprocess.h"

namespace {

std::string backward_model_dir() {
    if (const char* env = std::getenv("VITSCOPE_MODEL"); env && *env) return env;
    return std::string(VITSCOPE_SOURCE_DIR) + "/../shared/models/vit_tiny_patch16_224.augreg_in21k_ft_in1k";
}

void BM_Backward(benchmark::State& state) {
    static const vit::Model model = vit::load_model(backward_model_dir());
    const int size = static_cast<int>(state.range(0));
    const vit::Image image = vit::load_image(std::string(VITSCOPE_SOURCE_DIR) + "/assets/dog.jpg");
    const vit::Trace trace = vit::forward(model, vit::preprocess(image, model.config.pre, size));
    const int top1 = vit::rank_classes(trace.logits, 1)[0].index;
    for (auto _ : state) benchmark::DoNotOptimize(vit::class_gradients(model, trace, top1));
    state.counters["tokens"] = trace.tokens;
}

BENCHMARK(BM_Backward)->Arg(224)->Arg(448)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
