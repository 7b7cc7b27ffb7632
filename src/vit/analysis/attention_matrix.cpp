#include "vit/analysis/attention_matrix.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "vit/base/error.h"
#include "vit/forward/token_name.h"

namespace vit {

MatrixWindow matrix_window(int tokens, int zoom, int query) {
    MatrixWindow w;
    if (tokens <= 0) return w;
    // Fewer than 8 cells a side says nothing a single row would not.
    w.cells = std::clamp(tokens / std::max(1, zoom), std::min(tokens, 8), tokens);
    const int centre = std::clamp(query, 0, tokens - 1);
    w.first_row = std::clamp(centre - w.cells / 2, 0, tokens - w.cells);
    w.first_col = w.first_row;  // the diagonal stays on the diagonal: a token against itself
    return w;
}

MatrixCellIndex matrix_cell_at(const MatrixWindow& w, double x, double y) {
    if (!(x >= 0 && x < 1 && y >= 0 && y < 1) || w.cells <= 0) return {};
    const int col = std::min(w.cells - 1, static_cast<int>(std::floor(x * w.cells)));
    const int row = std::min(w.cells - 1, static_cast<int>(std::floor(y * w.cells)));
    return {w.first_row + row, w.first_col + col};
}

float matrix_max(const Trace& t, int layer, int head) {
    if (layer < 0 || layer >= static_cast<int>(t.layers.size()) || head < 0 ||
        head >= static_cast<int>(t.layers[layer].heads.size()))
        throw Error("no layer " + std::to_string(layer) + " head " + std::to_string(head) + " in the trace");
    return t.layers[layer].heads[head].attn.maxCoeff();
}

std::string matrix_cell_caption(const Trace& t, int layer, int head, int query, int key) {
    if (query < 0 || key < 0 || query >= t.tokens || key >= t.tokens) return {};
    const float w = t.layers.at(layer).heads.at(head).attn(query, key);
    char text[200];
    std::snprintf(text, sizeof text, "query %s (token %d) → key %s (token %d): weight %.4f",
                  token_name(t, query).c_str(), query, token_name(t, key).c_str(), key, w);
    return text;
}

}  // namespace vit
