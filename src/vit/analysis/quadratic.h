// Why attention is quadratic: how many attention weights the model computes
// at an input size, what the linear layers and the attention cost in theory,
// and the forward pass timed on this machine at several input sizes, split
// into the two, with the fits a*N (linear layers) and b*N^2 (attention).
#pragma once
#include <vector>

#include "vit/base/task_control.h"
#include "vit/forward/forward.h"
#include "vit/image/image.h"

namespace vit {

struct AttentionSize {
    int input_size = 0, grid = 0, tokens = 0;  // N = prefix + grid^2
    long long weights_per_head = 0;            // N^2 (one N x N matrix)
    long long attention_weights = 0;           // layers x heads x N^2
    long long attention_bytes = 0;             // those as float32, as the trace keeps them
};
AttentionSize attention_size(const Model& model, int input_size);

// Floating-point operations of one block for N tokens, a multiply-add counted
// as 2: the linear layers 2N(4d^2 + 2dm) (q, k, v and the output projection:
// 4 of d x d; the MLP: d x m and m x d), which is 24Nd^2 when m = 4d; the
// attention 4N^2 d (q.k^T and a.v, each N^2 d multiply-adds over all heads;
// the softmax's N^2 exponentials not counted).
struct BlockFlops {
    double linear = 0, attention = 0;
};
BlockFlops block_flops(const Model& model, int tokens);
// The N where the two are equal: 4N^2 d = 2N(4d^2 + 2dm), N = 2d + m (6d when
// m = 4d: 1152 tokens for ViT-Ti, d = 192). The same for the whole model, as
// every block has the same shape.
double theoretical_crossover_tokens(const Model& model);
// The input side (pixels, not rounded to the patch) whose grid gives `tokens`
// tokens: patch * sqrt(tokens - prefix).
double input_size_for_tokens(const Model& model, double tokens);

// The sizes the page measures: 224, 288, 352, 448, 512, 640 for a patch-16
// model; for another patch size, each rounded to the nearest multiple of it.
std::vector<int> default_timing_sizes(const Model& model);

struct TimingPoint {
    int input_size = 0, tokens = 0;
    // Medians over the repeats, of each part on its own (Trace::linear_seconds,
    // attention_seconds and seconds).
    double linear_seconds = 0, attention_seconds = 0, total_seconds = 0;
};
struct TimingRun {
    std::vector<TimingPoint> points;  // the sizes finished, in the order given
    bool cancelled = false;
    int threads = 1;  // the threads each forward pass split its work over
};
// Runs the forward pass `repeats` times at each size on the photo (preprocessed
// at that size, position embeddings interpolated), keeping the trace as the
// explorer does (options). Every size is checked first, before anything runs:
// a size that is not a positive multiple of the patch, or whose trace exceeds
// the memory budget, throws vit::Error (the forward pass's own message).
// Reports progress after each forward; stops between forwards when asked.
TimingRun measure_forward_times(const Model& model, const Image& photo, const std::vector<int>& sizes, int repeats = 3,
                                const TaskControl& control = {}, const TraceOptions& options = {});

// Least-squares fits through the origin: linear_seconds ~ a*N and
// attention_seconds ~ b*N^2 over the points, and where they cross (N = a / b).
struct CostFit {
    double linear_per_token = 0;      // a, seconds per token
    double attention_per_token2 = 0;  // b, seconds per token^2
    double crossover_tokens = 0;      // a / b (0 when b is 0)
    // The fitted curves at N tokens, in seconds.
    double linear_at(double tokens) const { return linear_per_token * tokens; }
    double attention_at(double tokens) const { return attention_per_token2 * tokens * tokens; }
};
CostFit fit_costs(const std::vector<TimingPoint>& points);

}  // namespace vit
