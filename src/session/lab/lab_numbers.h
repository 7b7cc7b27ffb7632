// The Learning lab's numbers over a whole run on one sample, GUI-free: at
// every checkpoint, in every layer and head, where each of three queries (the
// sample's square 1, square 2 and the class token) puts its weight: on square
// 1, on square 2, on the background (the other patches) and on the class
// token; the head that singles out the task's squares most (the lab's auto);
// the moment that head learned it beside the moment the accuracy rose; the
// learned position embeddings' cosine similarities and their row-and-column
// claim. The window draws these; `vitscope lab RUN --csv` writes them.
//
// "The task's squares" for a query: the class token's weight on both squares
// (its even share 2 / patches: two of the patches), a square's weight on the
// other square (its even share 1 / tokens: one key of N, as lab_view.h).
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "session/lab/lab_run.h"
#include "vit/forward/forward.h"
#include "vit/image/image.h"
#include "vit/model/model.h"

namespace session {

// The queries the lab offers, in its "query on" order.
inline constexpr int kQuerySquare1 = 0, kQuerySquare2 = 1, kQueryCls = 2, kLabQueries = 3;
const char* lab_query_name(int query);  // "square1", "square2", "cls"
// The query token: the class token, or the square's patch token (-1: the sample has no such square).
int lab_query_token(int query, int square1, int square2);

// Where one query row puts its weight; the four add up to 1.
struct LabShares {
    double square1 = 0, square2 = 0, background = 0, cls = 0;
};
// square1, square2: tokens (-1: none).
LabShares shares_of(const vit::Trace& t, int layer, int head, int query_token, int square1, int square2);
double task_weight(const LabShares& s, int query);
double even_task_share(int query, int tokens, int patches);

// Every layer x head x query of one checkpoint on the sample.
struct LabShareTable {
    int layers = 0, heads = 0;
    std::vector<LabShares> cells;  // [layer][head][query]
    const LabShares& at(int layer, int head, int query) const {
        return cells[(static_cast<size_t>(layer) * heads + head) * kLabQueries + query];
    }
};
LabShareTable share_table(const vit::Trace& t, int square1, int square2);

struct LabPick {
    int layer = 0, head = 0;
    double weight = 0;  // on the task's squares
};
// The layer and head with the most weight on the task's squares for the query,
// over all layers or in `layer` alone (ties: the earlier layer, then the lower head).
LabPick pick_head(const LabShareTable& t, int query, int layer = -1);

// The cosine similarity of each patch's learned position embedding with every
// other (the ViT paper's Fig. 7, centre), and its claim: neighbouring positions
// (one step along a row or a column) are more alike than positions 4 or more
// apart (in rows or in columns: max(|dr|, |dc|) >= 4), by kPositionMargin.
inline constexpr double kPositionMargin = 0.1;
struct LabPositions {
    int grid = 0;
    std::vector<float> cosine;  // (grid^2) x (grid^2), row-major
    double near = 0, far = 0;
    bool holds() const { return near - far >= kPositionMargin; }
};
// None when the model has no learned positions (all zero: trained with --no-position).
std::optional<LabPositions> position_similarity(const vit::Model& m);
// The claim in words (null: a model without position embeddings).
std::string position_sentence(const LabPositions* p, int step);

// One checkpoint's numbers on the sample.
struct LabStepNumbers {
    int step = 0;
    double accuracy = 0, loss = 0;  // log.csv's held-out numbers
    LabShareTable shares;
    std::optional<LabPositions> positions;
};
using LabModelSource = std::function<std::shared_ptr<const vit::Model>(const std::string& dir)>;
// Every checkpoint of the run on the sample whose squares are square1, square2 (patch tokens).
std::vector<LabStepNumbers> run_numbers(const LabRun& run, const vit::Image& sample, int square1, int square2,
                                        const LabModelSource& model);

// The moment attention is learned: the first checkpoint where (layer, head)'s
// weight on the task's squares reaches kReachRatio x its even share, and the
// first where the held-out accuracy passes kAccurate (-1: never).
inline constexpr double kAccurate = 0.9;
struct LabMoment {
    int layer = 0, head = 0, query = 0;
    double threshold = 0;
    int learned_step = -1, learned_index = -1;
    double learned_weight = 0;
    int accurate_step = -1, accurate_index = -1;
    double accurate_value = 0;
};
LabMoment learned_moment(const std::vector<LabStepNumbers>& series, int layer, int head, int query, int tokens,
                         int patches);
std::string moment_sentence(const LabMoment& m);

// `vitscope lab RUN --csv`: a header, then one row per checkpoint x layer x head x query.
std::string lab_csv(const std::vector<LabStepNumbers>& series);

}  // namespace session
