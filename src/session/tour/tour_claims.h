// The claims a tour checks on the photo on show, as `vitscope tour` writes
// them to claims.csv: step,claim,layer,head,query,value,baseline,holds, one
// row per step whose claim applies (step counts from 1; query is the token
// index; value and baseline are shares from 0 to 1, for high_norm_tokens the
// layer's largest and median patch norms, for unscaled_top_weight the row's
// largest weight without and with the division by sqrt(d_k); holds is 1 or
// 0; the definitions are vit/analysis/neighbourhood_claims.h's). Each
// step is shown in turn, so its choose: lines pick the head it reports.
#pragma once
#include <string>

#include "session/state/app_state.h"

namespace session {

std::string tour_claims_csv(AppState s);

}  // namespace session
