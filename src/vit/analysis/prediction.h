// Predict, then reveal: a class marks the patches it expects a query to
// attend to before the map is shown; then the map shows how much of the
// query's weight fell on those patches, against the fair baseline of an even
// spread: the same patch weight spread evenly over every patch would put
// (share of patches marked) x (weight on patches) on them.
#pragma once
#include <string>
#include <vector>

#include "vit/forward/forward.h"

namespace vit {

struct PredictionScore {
    int marked = 0;                // distinct patches marked
    int patches = 0;               // grid * grid
    double area_share = 0;         // marked / patches
    double weight_on_marked = 0;   // the row's weight on the marked patches
    double weight_on_patches = 0;  // on every patch (1 less CLS's and the registers')
    double even_spread = 0;        // what an even spread of weight_on_patches puts on the marked patches
    double ratio = 0;              // weight_on_marked / even_spread; 0 when nothing is marked
};

// weights: one row over the trace's tokens (a head's or a mean of heads).
// marked: patch tokens, repeats counted once. Throws vit::Error when the row's
// length is not the token count or a marked token is not a patch.
PredictionScore score_prediction(const Trace& t, const Vec& weights, const std::vector<int>& marked);

// The sentence the reveal shows, from the numbers alone: "The marked patches
// (12 of 196, 6.1 % of the photo) hold 38.2 % of the weight: 6.5 times an even
// spread." and a verdict against the even spread (ratio >= 1.5 more, <= 1/1.5
// less, between: about what an even spread gives). Empty when nothing is marked.
std::string prediction_sentence(const PredictionScore& score);

}  // namespace vit
