// The Questions tab's room: the page on show and the state only one page
// uses (the matrix page's zoom and hovered cell, the relevance page's class,
// the permutation page's shuffle).
#pragma once
#include <cstdint>
#include <string>

namespace session {

// The matrix page's deepest zoom.
inline constexpr int kMaxMatrixZoom = 32;

struct QuestionsRoom {
    std::string question = "scaling";  // the Questions tab's page (explain's --question name)
    int relevance_class = -1;          // the class the relevance page explains; -1: the model's top-1
    uint32_t permutation_seed = 0;     // the permutation page's shuffle (explain's --seed, whose default is 0)
    // The matrix page: its zoom (1: all N x N cells; z: N / z a side around
    // the query) and the cell under the mouse (-1: none).
    int matrix_zoom = 1;
    struct MatrixHover {
        int query = -1, key = -1;
    } matrix_hover;
};

}  // namespace session
