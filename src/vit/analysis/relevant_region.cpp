#include "vit/analysis/relevant_region.h"

#include <algorithm>

namespace vit {

GridRegion relevant_region(const Trace& t, const RelevantQuery& relevant, int query, const std::vector<int>& left_out) {
    std::vector<char> in(t.tokens, 0);
    for (int j : relevant.relevant)
        if (t.is_patch(j)) in[j] = 1;
    for (int j : left_out)
        if (j >= 0 && j < t.tokens) in[j] = 0;
    GridRegion out;
    if (!t.is_patch(query) || !in[query]) return out;
    std::vector<int> todo = {query};
    in[query] = 0;
    while (!todo.empty()) {
        const int j = todo.back();
        todo.pop_back();
        const int r = t.row_of(j), c = t.col_of(j);
        out.emplace_back(r, c);
        const int next[4][2] = {{r - 1, c}, {r + 1, c}, {r, c - 1}, {r, c + 1}};
        for (const auto& [nr, nc] : next)
            if (nr >= 0 && nc >= 0 && nr < t.grid && nc < t.grid && in[t.token_of(nr, nc)]) {
                in[t.token_of(nr, nc)] = 0;
                todo.push_back(t.token_of(nr, nc));
            }
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace vit
