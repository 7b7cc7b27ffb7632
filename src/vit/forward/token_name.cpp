#include "vit/forward/token_name.h"

namespace vit {

std::string prefix_token_name(int token, int dist_tokens, int registers) {
    if (token == 0) return "CLS";
    if (token <= dist_tokens) return "dist";
    if (const int reg = token - 1 - dist_tokens; reg >= 0 && reg < registers) return "reg " + std::to_string(reg);
    return "token " + std::to_string(token);
}

std::string token_name(const Trace& t, int token) {
    if (t.is_patch(token))
        return "patch (" + std::to_string(t.row_of(token)) + ", " + std::to_string(t.col_of(token)) + ")";
    return prefix_token_name(token, t.dist_tokens, t.registers);
}

}  // namespace vit
