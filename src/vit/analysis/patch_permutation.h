// Rearranging whole patches of the model input, and comparing a run on the
// rearranged input with the original run once its tokens are put back. The
// patch embedding works on each patch alone, so moving the input's patches
// moves the patch tokens exactly: what the Questions pages' shuffle and
// shift experiments rest on.
#pragma once
#include <cstdint>
#include <vector>

#include "vit/forward/forward.h"
#include "vit/image/preprocess.h"
#include "vit/model/model.h"

namespace vit {

// A rearrangement of the grid's patches, in raster order: to[p] is the
// position that original patch p moves to. Prefix tokens never move.
struct PatchPermutation {
    std::vector<int> to;
    int size() const { return static_cast<int>(to.size()); }
};

// The identity on n patches.
PatchPermutation identity_permutation(int patches);
// A random rearrangement: Fisher-Yates on the identity with std::mt19937(seed),
// for i = n-1 down to 1 swapping entries i and (draw mod (i + 1)), one 32-bit
// draw per step (the same seed gives the same permutation everywhere).
PatchPermutation random_patch_permutation(int patches, uint32_t seed);
// Every patch moved down by `rows` and right by `cols`, wrapping around the
// grid's edges (negative values move up / left).
PatchPermutation cyclic_shift(int grid, int rows, int cols);
// The inverse: inverse(p).to[p.to[i]] == i.
PatchPermutation inverse(const PatchPermutation& p);

// The input with every patch moved (the mosaic the shuffle page shows).
// Throws vit::Error when the permutation's size is not the input's grid^2.
Input permute_patches(const Input& input, int patch, const PatchPermutation& p);

// Where a token of the original run is in the rearranged run (prefix: same index).
int moved_token(const Trace& t, const PatchPermutation& p, int token);
// A row over the original run's tokens re-indexed onto the rearranged run's:
// out[moved_token(j)] = row[j] (the original map moved with the patches).
Vec move_row(const Trace& t, const PatchPermutation& p, const Vec& row);

// The what-if runs both the shuffle and the shift experiments make: the
// rearranged input with position embeddings, and the input as is and
// rearranged without them. The three traces are checked together against the
// memory budget before any runs (options.memory_budget, or the default);
// options.keep_attention is forced on, options.position_embeddings set per run.
struct RearrangedRuns {
    Input input;                   // the rearranged input (a mosaic)
    Trace rearranged;              // with position embeddings
    Trace original_without_pos;    // the input as is, without position embeddings
    Trace rearranged_without_pos;  // the rearranged input, without position embeddings
};
RearrangedRuns run_rearranged(const Model& model, const Input& input, const PatchPermutation& p, TraceOptions options);

// The largest differences between an original run and a run on the permuted
// input once the latter's tokens are put back: every attention weight (rows
// and columns moved back) and the final token states.
struct UnpermutedDifference {
    double attention = 0;     // max |A[i, j] - A'[to(i), to(j)]| over layers, heads, i, j
    double final_tokens = 0;  // max |F[i] - F'[to(i)]| over tokens and features
    double max() const { return attention > final_tokens ? attention : final_tokens; }
};
// Throws vit::Error when the traces do not have the same shape, or lack attention weights.
UnpermutedDifference unpermuted_difference(const Trace& original, const Trace& permuted, const PatchPermutation& p);

}  // namespace vit
