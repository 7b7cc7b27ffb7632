#include "vit/analysis/dynamic.h"

#include "vit/analysis/attention_rows.h"
#include "vit/base/error.h"

namespace vit {

ContentShift run_content_shift(const Model& m, const Input& input, int rows, int cols, TraceOptions options) {
    ContentShift s;
    s.rows = rows;
    s.cols = cols;
    s.moves = cyclic_shift(input.size / m.patch, rows, cols);
    s.runs = run_rearranged(m, input, s.moves, options);
    return s;
}

double moved_map_difference(const Trace& original, const Trace& shifted, const PatchPermutation& moves, int layer,
                            int head, int query) {
    if (original.tokens != shifted.tokens || original.grid != shifted.grid)
        throw Error("the shifted run does not have the original's tokens");
    const Vec moved = move_row(original, moves, attention_row(original, layer, head, query));
    const Vec row = attention_row(shifted, layer, head, moved_token(original, moves, query));
    const int patches = original.tokens - original.prefix;
    if (patches <= 0) return 0;
    return (row - moved).tail(patches).cast<double>().cwiseAbs().sum() / patches;
}

MovedMapDifferences moved_map_differences(const Trace& original, const ContentShift& s, int layer, int head,
                                          int query) {
    return {moved_map_difference(original, s.runs.rearranged, s.moves, layer, head, query),
            moved_map_difference(s.runs.original_without_pos, s.runs.rearranged_without_pos, s.moves, layer, head,
                                 query)};
}

}  // namespace vit
