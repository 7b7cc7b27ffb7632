#include "vit/forward/forward.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <string>
#include <utility>

#include <malloc.h>

#include "vit/base/error.h"
#include "vit/base/memory_budget.h"
#include "vit/base/worker_pool.h"
#include "vit/kernels/kernels.h"

namespace vit {
namespace {

// Flattens the input into one row per patch, [c][y][x] like the conv weight.
Mat patches_of(const Input& input, int patch) {
    const int grid = input.size / patch;
    Mat p(static_cast<Eigen::Index>(grid) * grid, 3 * patch * patch);
    for (int gy = 0; gy < grid; ++gy)
        for (int gx = 0; gx < grid; ++gx) {
            float* dst = p.row(gy * grid + gx).data();
            for (int c = 0; c < 3; ++c)
                for (int y = 0; y < patch; ++y)
                    for (int x = 0; x < patch; ++x) *dst++ = input.at(c, gy * patch + y, gx * patch + x);
        }
    return p;
}

// Token sequence before the first block: CLS (+dist) + pos, registers, patches + pos
// (patches without pos in the what-if that leaves position embeddings out).
Mat embed(const Model& m, const Input& input, int grid, bool patch_positions) {
    Mat patch_tokens;
    linear(patches_of(input, m.patch), m.patch_embed, patch_tokens);
    const Mat pos = interpolate_pos_embed(m, grid);
    const int lead = 1 + (m.has_dist_token ? 1 : 0);  // tokens with a position embedding before the patches
    Mat x(m.prefix_tokens() + grid * grid, m.dim);
    x.row(0) = m.cls + pos.row(0);
    if (m.has_dist_token) x.row(1) = m.dist + pos.row(1);
    if (m.num_registers) x.middleRows(lead, m.num_registers) = m.registers;
    x.bottomRows(grid * grid) = patch_tokens;
    if (patch_positions) x.bottomRows(grid * grid) += pos.bottomRows(grid * grid);
    return x;
}

// softmax(q_h k_h^T / sqrt(d_k)) v_h for every head h, into its columns of context.
void attention(const Mat& q, const Mat& k, const Mat& v, int heads, int head_dim, const TraceOptions& opt,
               LayerTrace& trace, Mat& context) {
    const Eigen::Index n = q.rows();
    const float scale = 1.0f / std::sqrt(static_cast<float>(head_dim));
    context.resize(n, heads * head_dim);
    trace.heads.resize(heads);
    for (HeadTrace& ht : trace.heads) {
        ht.attn.resize(opt.keep_attention ? n : 0, opt.keep_attention ? n : 0);
        for (Mat* m : {&ht.q, &ht.k, &ht.v, &ht.out}) m->resize(opt.keep_qkv ? n : 0, opt.keep_qkv ? head_dim : 0);
    }
    // Every (head, half of the query rows) pair is independent: spread over
    // the cores, each keeping its own share of the trace.
    const int halves = 2;
    WorkerPool::shared().run(heads * halves, [&](int task) {
        const int hd = task / halves, part = task % halves;
        const int begin = static_cast<int>(n * part / halves), end = static_cast<int>(n * (part + 1) / halves);
        HeadTrace& ht = trace.heads[hd];
        head_attention(q, k, v, hd, head_dim, scale, begin, end,
                       opt.keep_attention ? ht.attn.row(begin).data() : nullptr, context);
        if (opt.keep_qkv)
            for (auto [all, mine] : {std::pair{&q, &ht.q}, {&k, &ht.k}, {&v, &ht.v}, {&context, &ht.out}})
                copy_to_trace(*all, hd * head_dim, begin, end, *mine);
    });
}

// Adds the wall time of one step to a running total (the trace's time split).
template <class Step>
void timed(double& total, Step&& step) {
    const auto start = std::chrono::steady_clock::now();
    step();
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A forward pass allocates and frees the same few dozen large blocks (the
// trace's matrices, Eigen's GEMM packing buffers) every run. glibc hands
// blocks over 128 KiB back to the kernel on each free, so every run paid for
// fresh zeroed pages and, with two threads, for the TLB shootdowns of each
// munmap (a quarter of the run's time here). Kept in the heap instead, up to
// 256 MiB of freed memory waits there for the next run.
void keep_large_blocks_in_the_heap() {
    [[maybe_unused]] static const bool once = [] {
        mallopt(M_MMAP_THRESHOLD, 32 << 20);  // glibc's largest allowed on 64-bit
        mallopt(M_TRIM_THRESHOLD, 256 << 20);
        return true;
    }();
}

// A number past float32's range (weights near 3e38 are still finite) turns
// every later number into NaN, and a result of NaN must never be shown as one:
// the first stage where it happens stops the run and is named.
void require_finite(const Mat& values, size_t layer, const char* what) {
    if (!values.allFinite())
        throw Error("layer " + std::to_string(layer) + ": " + what +
                    " are not finite (they overflow float32: the model's weights or the input are too large)");
}

void require_finite_input(const Input& input) {
    for (float x : input.chw)
        if (!std::isfinite(x))
            throw Error(
                "the preprocessed input is not finite (the preprocessing's mean, std or rescale factor are too large)");
}

}  // namespace

size_t trace_bytes(const Model& m, int input_size, const TraceOptions& opt) {
    const size_t grid = m.patch > 0 ? static_cast<size_t>(input_size / m.patch) : 0;
    const size_t n = m.prefix_tokens() + grid * grid, dim = m.dim, layers = m.blocks.size(), heads = m.heads;
    size_t floats = n * dim * 2;                                      // final tokens and working states
    if (opt.keep_states) floats += (layers + 1) * n * dim;            // block inputs and the last block's output
    if (opt.keep_qkv) floats += layers * 4 * n * dim;                 // q, k, v and the head outputs
    floats += (opt.keep_attention ? layers * heads : heads) * n * n;  // weights (one layer's while running)
    return floats * sizeof(float);
}

void check_input_size(const Model& m, int input_size, const TraceOptions& opt) {
    if (input_size <= 0 || input_size % m.patch != 0)
        throw Error("input size " + std::to_string(input_size) + " px is not a multiple of the patch size " +
                    std::to_string(m.patch));
    const size_t budget = opt.memory_budget ? opt.memory_budget : default_memory_budget();
    if (const size_t need = trace_bytes(m, input_size, opt); need > budget)
        throw Error("the trace at " + std::to_string(input_size) + " px would take " + byte_size(need) +
                    ", over the memory budget of " + byte_size(budget) +
                    " (use a smaller --size, or raise VITSCOPE_MEMORY_BUDGET)");
}

Trace forward(const Model& m, const Input& input, const TraceOptions& opt) { return forward(m, input, opt, Trace{}); }

Trace forward(const Model& m, const Input& input, const TraceOptions& opt, Trace&& storage) {
    check_input_size(m, input.size, opt);
    if (input.chw.size() != static_cast<size_t>(3) * input.size * input.size)
        throw Error("input holds " + std::to_string(input.chw.size()) + " values, expected 3 x " +
                    std::to_string(input.size) + " x " + std::to_string(input.size));
    const bool ablating = opt.ablate_layer != -1 || opt.ablate_head != -1;
    if (ablating && (opt.ablate_layer < 0 || opt.ablate_layer >= static_cast<int>(m.blocks.size()) ||
                     opt.ablate_head < 0 || opt.ablate_head >= m.heads))
        throw Error("no head " + std::to_string(opt.ablate_head) + " in layer " + std::to_string(opt.ablate_layer) +
                    " to remove (" + std::to_string(m.blocks.size()) + " layers of " + std::to_string(m.heads) +
                    " heads)");
    require_finite_input(input);
    keep_large_blocks_in_the_heap();
    const auto start = std::chrono::steady_clock::now();
    Trace t = std::move(storage);
    t.linear_seconds = t.attention_seconds = 0;
    t.grid = input.size / m.patch;
    t.prefix = m.prefix_tokens();
    t.dist_tokens = m.has_dist_token ? 1 : 0;
    t.registers = m.num_registers;
    t.tokens = t.prefix + t.grid * t.grid;
    t.head_dim = m.head_dim;
    t.layers.resize(m.blocks.size());

    Mat x = embed(m, input, t.grid, opt.position_embeddings), h, q, k, v, context, branch, hidden;
    const float eps = m.config.ln_eps;
    // Each residual step runs together with the norm after it: the MLP's of
    // block l with block l + 1's first norm (or the final norm).
    const Block* previous = nullptr;
    for (size_t l = 0; l < m.blocks.size(); ++l) {
        const Block& b = m.blocks[l];
        if (previous) add_and_layer_norm(x, branch, previous->ls2, b.ln1_w, b.ln1_b, eps, h);
        else layer_norm(x, b.ln1_w, b.ln1_b, eps, h);
        Mat& x_in = t.layers[l].x_in;
        x_in.resize(opt.keep_states ? x.rows() : 0, opt.keep_states ? x.cols() : 0);
        if (opt.keep_states) copy_to_trace(x, 0, 0, static_cast<int>(x.rows()), x_in);
        timed(t.linear_seconds, [&] { linear(h, {{&b.q, &q}, {&b.k, &k}, {&b.v, &v}}); });
        require_finite(q, l, "its queries");
        require_finite(k, l, "its keys");
        require_finite(v, l, "its values");
        timed(t.attention_seconds, [&] { attention(q, k, v, m.heads, m.head_dim, opt, t.layers[l], context); });
        require_finite(context, l, "its attention outputs (the scores overflow)");
        if (static_cast<int>(l) == opt.ablate_layer)  // the what-if: this head's output removed
            context.middleCols(static_cast<Eigen::Index>(opt.ablate_head) * m.head_dim, m.head_dim).setZero();
        timed(t.linear_seconds, [&] { linear(context, b.proj, branch); });
        add_and_layer_norm(x, branch, b.ls1, b.ln2_w, b.ln2_b, eps, h);
        timed(t.linear_seconds, [&] {
            linear_gelu(h, b.fc1, m.config.gelu_tanh, hidden);
            linear(hidden, b.fc2, branch);
        });
        require_finite(branch, l, "its MLP outputs");
        previous = &b;
    }
    if (previous) add_and_layer_norm(x, branch, previous->ls2, m.norm_w, m.norm_b, eps, t.final_tokens);
    else layer_norm(x, m.norm_w, m.norm_b, eps, t.final_tokens);
    if (opt.keep_states) t.last_block_out = x;
    else t.last_block_out.resize(0, 0);
    if (!t.final_tokens.allFinite()) throw Error("the final tokens are not finite (they overflow float32)");
    t.logits = classifier_logits(m, t.final_tokens);
    if (!t.logits.allFinite())
        throw Error("the logits are not finite (they overflow float32: the classifier's weights are too large)");
    t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return t;
}

Vec classifier_logits(const Model& m, const Mat& final_tokens) {
    if (m.head.w.size() == 0) return {};
    Vec logits = m.head.w * final_tokens.row(0).transpose() + m.head.b;
    if (m.has_dist_token && m.head_dist.w.size())
        logits = 0.5f * (logits + m.head_dist.w * final_tokens.row(1).transpose() + m.head_dist.b);
    return logits;
}

}  // namespace vit
