// The Questions tab's pages: the question each answers and its plain-language
// claim, in the order the tab lists them. The window's pages, their exported
// figures and `vitscope explain` name them the same way.
#pragma once
#include <string_view>
#include <vector>

namespace session {

struct QuestionPage {
    const char* name;    // "scaling": the script's `question NAME`, explain's --question
    const char* title;   // "Why divide by √dₖ?"
    const char* claim;   // two or three plain sentences; the evidence follows on the page
    bool two_photos = false;  // shows the second photo (File > Compare with…) beside the first
};

const std::vector<QuestionPage>& question_pages();

// The page called name, or null.
const QuestionPage* find_question_page(std::string_view name);

}  // namespace session
