#include "session/tour/tour_limits.h"

namespace session::tour_limits {

size_t unclosed_brace(const std::string& text) {
    for (size_t open = text.find('{'); open != std::string::npos; open = text.find('{', open + 1)) {
        const size_t close = text.find('}', open);
        if (close == std::string::npos) return open;
        open = close;
    }
    return std::string::npos;
}

std::string without_bom(std::string text) {
    if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);
    return text;
}

}  // namespace session::tour_limits
