// What a token is called, the same in the window and on the command line:
// "CLS", "dist" (DeiT's distillation token), "reg 0".."reg 3", "patch (5, 7)".
#pragma once
#include <string>

#include "vit/forward/forward.h"

namespace vit {

std::string token_name(const Trace& t, int token);

// A token before the patches, from the layout alone (before any run).
std::string prefix_token_name(int token, int dist_tokens, int registers);

}  // namespace vit
