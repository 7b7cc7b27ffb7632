#include "vit/analysis/questions.h"

namespace vit {

const std::vector<QuestionPage>& all_questions() {
    static const std::vector<QuestionPage> questions = {
#define PAGE(name, title, claim, analysis, columns, flags) \
    {#name, title, claim, analysis, columns, ((flags)&kTwoPhotos) != 0, nullptr, ((flags)&kNeedsClass) != 0},
#define ANSWER(name, title, analysis, columns, page, flags) \
    {#name, title, "", analysis, columns, ((flags)&kTwoPhotos) != 0, #page, ((flags)&kNeedsClass) != 0},
#include "vit/analysis/question_list.inc"
#undef PAGE
#undef ANSWER
    };
    return questions;
}

const std::vector<QuestionPage>& question_pages() {
    static const std::vector<QuestionPage> pages = [] {
        std::vector<QuestionPage> out;
        for (const QuestionPage& q : all_questions())
            if (q.has_page()) out.push_back(q);
        return out;
    }();
    return pages;
}

const QuestionPage* find_question(std::string_view name) {
    for (const QuestionPage& q : all_questions())
        if (name == q.name) return &q;
    return nullptr;
}

const QuestionPage* find_question_page(std::string_view name) {
    const QuestionPage* q = find_question(name);
    return q && q->has_page() ? q : nullptr;
}

}  // namespace vit
