#include "ui/widgets/print_text.h"

#include <algorithm>
#include <regex>

namespace ui {
namespace {

// Figures are drawn on the window's thread, one at a time.
thread_local bool g_for_print = false;

bool is_hint(const std::string& piece) {
    static const std::regex hint(R"(\b([Cc]lick|[Hh]over|[Dd]rag|[Pp]ress|[Ss]croll)(s|ing|ed)?\b)");
    return std::regex_search(piece, hint);
}

}  // namespace

std::string without_mouse_hints(const std::string& text) {
    // Parenthesised asides first ("layer (a dot per head: click one)").
    std::string kept;
    for (size_t i = 0; i < text.size();) {
        const size_t open = text.find('(', i);
        const size_t close = open == std::string::npos ? open : text.find(')', open);
        if (close == std::string::npos) {
            kept += text.substr(i);
            break;
        }
        const std::string inside = text.substr(open, close + 1 - open);
        kept += text.substr(i, open - i);
        if (!is_hint(inside)) kept += inside;
        else if (!kept.empty() && kept.back() == ' ') kept.pop_back();  // no space left before the gap
        i = close + 1;
    }
    // Then whole sentences: each ends at '.', '!' or '?' followed by a space or the end.
    std::string out;
    size_t from = 0;
    while (from < kept.size()) {
        size_t end = from;
        while (end < kept.size() && !((kept[end] == '.' || kept[end] == '!' || kept[end] == '?') &&
                                      (end + 1 == kept.size() || kept[end + 1] == ' ')))
            ++end;
        end = std::min(end + 1, kept.size());
        std::string sentence = kept.substr(from, end - from);
        if (!is_hint(sentence)) out += sentence;
        from = end;
    }
    const size_t first = out.find_first_not_of(' '), last = out.find_last_not_of(' ');
    return first == std::string::npos ? std::string() : out.substr(first, last + 1 - first);
}

bool drawing_for_print() { return g_for_print; }

PrintScope::PrintScope() : was_(g_for_print) { g_for_print = true; }
PrintScope::~PrintScope() { g_for_print = was_; }

}  // namespace ui
