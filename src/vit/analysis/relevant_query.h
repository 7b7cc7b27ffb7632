// The tour's query on a photo it does not know: a patch the model uses for
// its answer, chosen from the model's own evidence by a stated criterion.
//   1. gradient-weighted rollout for the top-1 class (relevance.h) ranks it
//      in its top quarter of the patches;
//   2. it is no high-norm token entering any layer (token_norms.h): those rank
//      high in rollouts too, for what they store, not for what they show;
//   3. it is not on the grid's border where a patch off the border qualifies
//      (its 3 x 3 neighbourhood is then whole);
// and of the patches left, the most relevant (ties: the lower token).
#pragma once
#include <string>
#include <vector>

#include "vit/forward/forward.h"
#include "vit/model/model.h"

namespace vit {

struct RelevantQuery {
    int token = -1;             // the chosen patch; -1 when every patch is high-norm
    int rank = 0;               // 1 + the patches more relevant than it (1: the most relevant)
    int quarter = 0;            // a quarter of the patches, rounded up: a patch is in the top
                                // quarter when fewer than this many are more relevant
    bool in_quarter = false;    // criterion 1 held (else: the most relevant patch that is no high-norm token)
    bool on_border = false;     // criterion 3 could not hold
    std::vector<int> relevant;  // the top quarter's tokens, the most relevant first (more than
                                // `quarter` only where patches tie at the cut)
};

// From a relevance value per patch (raster order, as gradient_rollout gives)
// and the tokens to leave out. Throws vit::Error when relevance does not
// have one value per patch.
RelevantQuery choose_relevant_query(const Trace& t, const Eigen::VectorXd& relevance,
                                    const std::vector<int>& high_norm);

// The high-norm patch tokens entering any layer or leaving the last one.
// Throws vit::Error when the trace kept no token states or attention weights.
std::vector<int> high_norm_anywhere(const Trace& t);

struct RelevantQueryChoice {
    RelevantQuery query;
    int target_class = 0;    // the top-1 class the relevance is for
    double probability = 0;  // its softmax probability
    std::string label;
    Eigen::VectorXd relevance;  // gradient-weighted rollout per patch, raster order
};
// All of it on a model's trace: the top-1 class, one backward pass
// (about ten forwards' time), the high-norm tokens, the choice. Throws
// vit::Error for a model without a classifier or a trace without states.
RelevantQueryChoice relevant_query(const Model& model, const Trace& t);

}  // namespace vit
