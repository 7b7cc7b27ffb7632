// The answer key of a homework on one photo (vitscope exercises --key), for
// a teacher to mark from and for --grade to recompute verdicts from. One CSV
// row per exercise:
//
//   exercise,kind,layer,head,query,query_patch,key,key_patch,answer,accepted,
//   tolerance,as_asked,marking,weights,variant
//
// tokens as indices (0 = CLS) with "(row, col)" beside them as the sheets
// print patches; head "mean" for map=mean. answer: top_key the key's token,
// the numeric kinds the number (9 significant digits), a choice its
// option(s) ("1 3"); accepted: every answer that counts, machine-readable
// (top_key the tokens, near-ties the lesson page accepts included; a number
// the interval "LOW HIGH"; a choice the options); tolerance as the file
// wrote it (predict_region: its ratio); as_asked the answer in the
// question's units ("0.019 (3 decimals; 1.9%)", "patch (7, 5)"); marking
// one line a teacher reads (near-ties with their weights, the rule that
// scores a marked region and the model's own region); weights, for
// predict_region only, the row's patch weights (what --grade scores marks on).
#pragma once
#include <string>
#include <vector>

#include "session/homework/exercises.h"

namespace session {

// `variant` goes in the last column (variants.h; 1 without variants); `header`: the first line.
std::string answer_key_csv(const vit::Trace& t, const ExerciseSet& set, const std::vector<ExerciseAnswer>& answers,
                           int variant = 1, bool header = true);

// The model's own region for predict_region: the fewest patches holding at
// least half of the patches' weight, heaviest first.
std::vector<int> model_region(const vit::Trace& t, const vit::Vec& row);

// One CSV field, quoted when it holds a comma, quote or line break.
std::string csv_field(const std::string& s);

}  // namespace session
