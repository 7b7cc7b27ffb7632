// The numbers a paper worksheet prints beside each exercise, so a student
// with a calculator and no screen can answer it (issue 50, item 1): never
// the answer itself, always enough to compute it within its tolerance.
//
//   top_key         q·k of the query with the few keys it weighs most, in
//                   token order (not ranked), and the largest q·k of any other key
//                   (map=mean: the keys' mean weights instead)
//   weight          q·k with the key, √dₖ and Z = Σ exp(q·k / √dₖ) over the row
//                   (map=mean: those of every head of the layer)
//   score           the scaled score q·k / √dₖ and √dₖ
//   scaled_score    q·k and √dₖ
//   exp             q·k and √dₖ
//   z               the scaled scores of the few keys it weighs most, and the
//                   sum of exp over every other key
//   predict_region, choice: none (a region is a prediction; options are printed)
#pragma once
#include <string>
#include <vector>

#include "session/homework/exercises.h"

namespace session {

struct GivenNumber {
    std::string name;   // machine-readable: score, sqrt_dk, z, scaled, rest, mean_weight, other_max;
                        // per key or head: "score@183", "z@h2", "score@h2"
    std::string label;  // as printed: "q·k of patch (5, 3) with patch (7, 12)"
    double value = 0;   // the number printed, as printed (rounded to 6 significant figures)
    std::string shown;  // its text
};

std::vector<GivenNumber> worksheet_numbers(const vit::Trace& t, const Exercise& e, const ExerciseAnswer& a);

}  // namespace session
