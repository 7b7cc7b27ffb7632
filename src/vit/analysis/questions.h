// The Questions: every question the Questions tab shows as a page or
// `vitscope explain` answers, in the order the tab lists them, read from the
// one list (question_list.inc), which also pairs each with its CSV rows
// (src/app) and its page's view (src/ui). The session reads them here.
#pragma once
#include <string_view>
#include <vector>

namespace vit {

// question_list.inc's flags.
inline constexpr unsigned kOnePhoto = 0, kTwoPhotos = 1, kNeedsClass = 2;

struct QuestionPage {
    const char* name;                // "scaling": the script's `question NAME`, explain's --question
    const char* title;               // "Why divide by √dₖ?": the page's, its figure's and the command line's title
    const char* claim;               // two or three plain sentences; the evidence follows on the page
    const char* analysis;            // the src/vit module that computes its numbers
    const char* columns;             // the header of `vitscope explain --question NAME --csv`
    bool two_photos = false;         // shows the second photo (File > Compare with…) beside the first
    const char* shown_on = nullptr;  // a question with no page of its own: the page its figure is
    bool needs_class = false;        // its CSV explains one class: refused without --class LABEL|INDEX
    bool has_page() const { return shown_on == nullptr; }
    const char* figure_page() const { return shown_on ? shown_on : name; }
};

// Every question, pages and command-line-only ones alike.
const std::vector<QuestionPage>& all_questions();
// The pages of the Questions tab.
const std::vector<QuestionPage>& question_pages();

// The question called name (page or not), or null.
const QuestionPage* find_question(std::string_view name);
// The page called name, or null.
const QuestionPage* find_question_page(std::string_view name);

}  // namespace vit
