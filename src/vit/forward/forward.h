// The forward pass, keeping everything the explorer shows: the Trace.
#pragma once
#include <cstddef>
#include <vector>

#include "vit/base/memory_budget.h"
#include "vit/base/tensor.h"
#include "vit/image/preprocess.h"
#include "vit/model/model.h"
#include "vit/model/pos_embed.h"

namespace vit {

struct HeadTrace {
    Mat q, k, v;  // N x head_dim, after the qkv projection (bias included)
    Mat attn;     // N x N softmax weights, row i = query token i
    Mat out;      // N x head_dim, out = attn * v (before the output projection)
};

struct LayerTrace {
    Mat x_in;  // N x dim token states entering the block
    std::vector<HeadTrace> heads;
};

struct Trace {
    int grid = 0;         // patches per side
    int prefix = 1;       // CLS (+ distillation) + registers, before the patches
    int dist_tokens = 0;  // 1 when token 1 is DeiT's distillation token
    int registers = 0;    // register tokens, right after CLS (and distillation)
    int tokens = 0;       // N = prefix + grid*grid
    int head_dim = 0;
    std::vector<LayerTrace> layers;
    Mat last_block_out;  // N x dim leaving the last block, before the final LayerNorm (with keep_states)
    Mat final_tokens;    // N x dim after the final LayerNorm
    Vec logits;          // num_classes (empty without a classifier)
    double seconds = 0;  // wall time of the forward pass
    // Parts of `seconds`: the linear layers (q, k, v, output projection, MLP)
    // and the attention proper (q.k^T, softmax, a.v). The rest (embedding,
    // norms, residual adds, classifier) is seconds - linear - attention.
    double linear_seconds = 0, attention_seconds = 0;

    // Token index of patch (row, col); row, col from the top left of the grid.
    int token_of(int row, int col) const { return prefix + row * grid + col; }
    bool is_patch(int token) const { return token >= prefix && token < tokens; }
    int row_of(int token) const { return is_patch(token) ? (token - prefix) / grid : -1; }
    int col_of(int token) const { return is_patch(token) ? (token - prefix) % grid : -1; }
};

// What forward() keeps; false fields are skipped (the benchmark's plain forward).
struct TraceOptions {
    bool keep_qkv = true;
    bool keep_attention = true;
    bool keep_states = true;
    size_t memory_budget = 0;  // 0: default_memory_budget()
    // What-if (the Questions pages): false adds no position embedding to the
    // patch tokens, so the model cannot tell where a patch is. The CLS (and
    // distillation) token keeps its own row: it is the same constant on every
    // run, part of that token rather than a position (registers have none).
    bool position_embeddings = true;
    // What-if (head ablation): zero this head's output (its columns of the
    // context, before the output projection) at this layer; -1: the real model.
    // The trace still holds what that head computed (HeadTrace::out).
    int ablate_layer = -1;
    int ablate_head = -1;
};

// Bytes the trace of a run at this input size will hold, computed before running.
size_t trace_bytes(const Model& model, int input_size, const TraceOptions& options);
// Throws the vit::Error forward() would throw for this input size: not a positive
// multiple of the patch size, or a trace over the memory budget.
void check_input_size(const Model& model, int input_size, const TraceOptions& options);

// Runs the model on a preprocessed input of any size that is a multiple of the
// patch size; position embeddings are resized as the model's library does it
// (pos_embed.h) when the grid differs from the one trained. Throws vit::Error on a size mismatch, or when
// the trace would exceed the memory budget (before allocating any of it).
Trace forward(const Model& model, const Input& input, const TraceOptions& options = {});
// The same, writing into `storage`: a trace no longer needed whose matrices
// are reused where their shapes match (no new allocation, no fresh pages);
// what this run does not keep is emptied. The result is the same floats.
Trace forward(const Model& model, const Input& input, const TraceOptions& options, Trace&& storage);

// The classifier on tokens after the final LayerNorm: head(CLS), averaged with
// head_dist(distillation token) for distilled DeiT. Empty without a classifier.
Vec classifier_logits(const Model& model, const Mat& final_tokens);

}  // namespace vit
