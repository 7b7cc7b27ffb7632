#include "vit/analysis/patch_permutation.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <utility>

#include "vit/base/error.h"
#include "vit/base/memory_budget.h"

namespace vit {
namespace {

void check_against(const Trace& t, const PatchPermutation& p) {
    if (p.size() != t.grid * t.grid)
        throw Error("a rearrangement of " + std::to_string(p.size()) + " patches does not fit a " +
                    std::to_string(t.grid) + " x " + std::to_string(t.grid) + " grid");
}

}  // namespace

PatchPermutation identity_permutation(int patches) {
    PatchPermutation p;
    p.to.resize(std::max(patches, 0));
    std::iota(p.to.begin(), p.to.end(), 0);
    return p;
}

PatchPermutation random_patch_permutation(int patches, uint32_t seed) {
    PatchPermutation p = identity_permutation(patches);
    // Written out rather than std::shuffle, whose draws the standard leaves to
    // each library: this order can be reproduced anywhere (the NumPy reference does).
    std::mt19937 draw(seed);
    for (int i = patches - 1; i >= 1; --i) std::swap(p.to[i], p.to[draw() % static_cast<uint32_t>(i + 1)]);
    return p;
}

PatchPermutation cyclic_shift(int grid, int rows, int cols) {
    PatchPermutation p;
    if (grid <= 0) return p;
    p.to.resize(static_cast<size_t>(grid) * grid);
    const auto wrap = [grid](int v) { return ((v % grid) + grid) % grid; };
    for (int r = 0; r < grid; ++r)
        for (int c = 0; c < grid; ++c) p.to[r * grid + c] = wrap(r + rows) * grid + wrap(c + cols);
    return p;
}

PatchPermutation inverse(const PatchPermutation& p) {
    PatchPermutation inv;
    inv.to.assign(p.to.size(), -1);
    for (int i = 0; i < p.size(); ++i) {
        const int j = p.to[i];
        if (j < 0 || j >= p.size() || inv.to[j] != -1) throw Error("not a permutation of the patches");
        inv.to[j] = i;
    }
    return inv;
}

Input permute_patches(const Input& input, int patch, const PatchPermutation& p) {
    const int grid = patch > 0 ? input.size / patch : 0;
    if (grid <= 0 || grid * patch != input.size || p.size() != grid * grid)
        throw Error("a rearrangement of " + std::to_string(p.size()) + " patches does not fit a " +
                    std::to_string(input.size) + " px input of " + std::to_string(patch) + " px patches");
    inverse(p);  // refuses anything that is not a permutation
    Input out = input;
    for (int src = 0; src < p.size(); ++src) {
        const int dst = p.to[src];
        const int sy = (src / grid) * patch, sx = (src % grid) * patch;
        const int dy = (dst / grid) * patch, dx = (dst % grid) * patch;
        for (int c = 0; c < 3; ++c)
            for (int y = 0; y < patch; ++y) {
                const float* from = &input.chw[(static_cast<size_t>(c) * input.size + sy + y) * input.size + sx];
                std::copy(from, from + patch,
                          &out.chw[(static_cast<size_t>(c) * input.size + dy + y) * input.size + dx]);
            }
    }
    return out;
}

int moved_token(const Trace& t, const PatchPermutation& p, int token) {
    check_against(t, p);
    if (token < 0 || token >= t.tokens) throw Error("token " + std::to_string(token) + " is out of range");
    return t.is_patch(token) ? t.prefix + p.to[token - t.prefix] : token;
}

Vec move_row(const Trace& t, const PatchPermutation& p, const Vec& row) {
    check_against(t, p);
    if (row.size() != t.tokens) throw Error("the row does not have one entry per token");
    Vec out = row;
    for (int j = t.prefix; j < t.tokens; ++j) out[t.prefix + p.to[j - t.prefix]] = row[j];
    return out;
}

RearrangedRuns run_rearranged(const Model& m, const Input& input, const PatchPermutation& p, TraceOptions options) {
    options.keep_attention = true;
    const size_t budget = options.memory_budget ? options.memory_budget : default_memory_budget();
    if (const size_t need = 3 * trace_bytes(m, input.size, options); need > budget)
        throw Error("the what-if's three extra runs at " + std::to_string(input.size) + " px would take " +
                    byte_size(need) + ", over the memory budget of " + byte_size(budget) +
                    " (use a smaller --size, or raise VITSCOPE_MEMORY_BUDGET)");
    RearrangedRuns r;
    r.input = permute_patches(input, m.patch, p);
    options.position_embeddings = true;
    r.rearranged = forward(m, r.input, options);
    options.position_embeddings = false;
    r.original_without_pos = forward(m, input, options);
    r.rearranged_without_pos = forward(m, r.input, options);
    return r;
}

UnpermutedDifference unpermuted_difference(const Trace& a, const Trace& b, const PatchPermutation& p) {
    if (a.grid != b.grid || a.tokens != b.tokens || a.prefix != b.prefix || a.layers.size() != b.layers.size() ||
        a.final_tokens.rows() != b.final_tokens.rows() || a.final_tokens.cols() != b.final_tokens.cols())
        throw Error("the two runs do not have the same shape");
    check_against(a, p);
    std::vector<int> to(a.tokens);
    for (int i = 0; i < a.tokens; ++i) to[i] = a.is_patch(i) ? a.prefix + p.to[i - a.prefix] : i;
    UnpermutedDifference d;
    for (size_t l = 0; l < a.layers.size(); ++l) {
        if (a.layers[l].heads.size() != b.layers[l].heads.size())
            throw Error("the two runs do not have the same heads");
        for (size_t h = 0; h < a.layers[l].heads.size(); ++h) {
            const Mat &x = a.layers[l].heads[h].attn, &y = b.layers[l].heads[h].attn;
            if (x.rows() != a.tokens || y.rows() != a.tokens) throw Error("a run was made without attention weights");
            for (int i = 0; i < a.tokens; ++i)
                for (int j = 0; j < a.tokens; ++j)
                    d.attention = std::max(d.attention, static_cast<double>(std::abs(x(i, j) - y(to[i], to[j]))));
        }
    }
    for (int i = 0; i < a.tokens; ++i)
        d.final_tokens =
            std::max(d.final_tokens,
                     static_cast<double>((a.final_tokens.row(i) - b.final_tokens.row(to[i])).cwiseAbs().maxCoeff()));
    return d;
}

}  // namespace vit
