// What the Learning lab's timeline shows at one checkpoint, computed by the
// real model of that checkpoint (its own forward pass, the project's
// kernels) on a held-out sample, and the sentences it says about it. GUI-free.
//
// The query is one of the sample's two squares or the class token (the
// queries of lab_numbers.h); "the task's squares" are the other square for a
// square, both squares for the class token. The sentences are claims checked
// against a fair baseline, shown only when they hold, else an honest
// alternative with the number found:
//   spread (about the first checkpoint): the largest weight of the query's row
//       in any head of the layer; baseline 1 / N (N tokens: an even spread).
//       Holds when the largest weight is at most kEvenRatio x the baseline.
//   other_square (a square's query, at the checkpoint shown): the layer and
//       head putting the most weight on the other square, and that weight;
//       baseline 1 / N, the other square's share of an even spread (one token
//       of N). Holds at kReachRatio x the baseline or more.
//   class_token (the class token's query): the layer and head putting the
//       most of its weight on the two squares; baseline 2 / patches (two of
//       the patches). Holds at kReachRatio x the baseline or more.
//   accuracy: the held-out accuracy there (log.csv), beside chance (0.5).
//   sample: the sample's true label, the model's answer, right or wrong.
//   pair: the run without (or with) position embeddings at the same step.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "session/lab/lab_numbers.h"
#include "vit/forward/forward.h"
#include "vit/image/image.h"
#include "vit/model/model.h"

namespace session {

inline constexpr double kEvenRatio = 2;   // "evenly": no key over twice an even share
inline constexpr double kReachRatio = 4;  // "singles out": four times an even share

// A square of a task's sample: an 8 x 8 px cell of one flat colour (the
// background is noisy grey, 176..224 in every channel, never flat).
struct LabSquare {
    int patch = 0;  // row-major on the grid
    int rgb[3] = {0, 0, 0};
};
// The squares of a sample (side x side px, cells of `cell` px), in reading
// order; the one the task's question is about first (vit/train/task_list.inc).
std::vector<LabSquare> find_squares(const vit::Image& sample, int cell, const std::string& task);

struct LabHeadRow {
    std::vector<float> weights;  // the query's row over all N tokens
    double on_task = 0;          // weight on the task's squares (the other square; both for the class token)
    LabShares shares;            // on square 1, square 2, the background, the class token
    double largest = 0;          // the row's largest weight
    int largest_token = -1;
};

struct LabCheckpoint {
    int step = 0;
    double accuracy = 0, loss = 0;            // log.csv's held-out numbers
    std::shared_ptr<const vit::Trace> trace;  // this checkpoint on the sample
    int layer = 0;
    std::vector<LabHeadRow> heads;  // the query's row in each head of `layer`
    std::string predicted;          // the model's answer on the sample
    double probability = 0;
    int best_head() const;   // the most weight on the task's squares
    double largest() const;  // the largest weight in any head's row
};

// The query's rows at `layer` of a trace (query: kQuerySquare1 .. kQueryCls;
// square1, square2: the squares' tokens, -1 when the sample lacks one).
std::vector<LabHeadRow> head_rows(const vit::Trace& trace, int layer, int query, int square1, int square2);
// Runs the checkpoint's model on the sample (preprocessed as any photo).
std::shared_ptr<const vit::Trace> run_checkpoint(const vit::Model& model, const vit::Image& sample);

struct LabSentence {
    std::string kind;  // spread, other_square, class_token, accuracy, sample, pair
    std::string text;
    bool holds = true;  // for the claims; facts always hold
    int step = 0;
    int head = -1, layer = -1;
    double value = 0, baseline = 0;
};

// The sample's own numbers for its sentence: its true label (samples.csv).
struct LabSampleFacts {
    int index = -1;  // -1: no sample sentence
    std::string label;
};

// `first`: the run's first checkpoint; `now`: the one shown; `pair`: the
// paired run at that step (null: none), `pair_position` its setting;
// `has_squares`: the sample has both squares; `query`: kQuerySquare1 .. kQueryCls.
std::vector<LabSentence> lab_sentences(const LabCheckpoint& first, const LabCheckpoint& now, const LabCheckpoint* pair,
                                       bool pair_position, bool has_squares, int query = kQuerySquare1,
                                       const LabSampleFacts& sample = {});

// "2,000"
std::string with_thousands(int n);

// Train's one-line warning (empty: none): steps below what the task needed in
// the default run (TaskSpec::learned_by; a shorter run also squeezes the
// warm-up and the cosine), or a task no model without positions can learn
// (its label flips when the squares swap, and such a model cannot tell).
std::string short_run_warning(const std::string& task, bool position, int steps);

}  // namespace session
