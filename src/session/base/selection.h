// What the person has picked: the layer, the head (and which heads the mean
// averages), the query, the hovered and pinned keys; and the names of the
// math panel's steps, which tours and scripts select by name.
#pragma once
#include <string>
#include <vector>

namespace session {

// Which map the photo view shows.
enum class MapSource { Head, MeanOfVisible };

struct Selection {
    int layer = 0;
    int head = 0;                    // the head the math panel explains
    std::vector<bool> head_visible;  // one per head of the model; the mean averages the visible ones
    MapSource source = MapSource::Head;
    int query = 0;         // token index; 0 = CLS
    int hovered_key = -1;  // token under the mouse in any map; -1 none
    int pinned_key = -1;   // clicked key the math panel stays on; -1 none
    std::vector<int> visible_heads() const {
        std::vector<int> v;
        for (size_t h = 0; h < head_visible.size(); ++h)
            if (head_visible[h]) v.push_back(static_cast<int>(h));
        return v;
    }
};

// The step-by-step tab's steps: query, key, score, scale, softmax, value, output.
inline constexpr int kMathSteps = 7;
// Their names, lower case as a tour file writes them ("scale"); and the
// number (1..kMathSteps) of a name, 0 for none.
inline constexpr const char* kMathStepNames[kMathSteps] = {"query",   "key",   "score", "scale",
                                                           "softmax", "value", "output"};
int math_step_number(const std::string& name);

}  // namespace session
