// The Questions tab: the list of questions on the left, the chosen page on the
// right (its question, its plain-language claim, then the page's evidence).
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "vit/analysis/questions.h"
#include "ui/questions/question_view.h"
#include "ui/widgets/frame.h"

namespace ui {

class QuestionsPanel {
public:
    void draw(const Frame& f);
    // The page on show in the Questions tab (it may mark the photo), or null.
    QuestionView* shown_view(const Frame& f);

private:
    std::map<std::string, std::unique_ptr<QuestionView>> views_;  // made when first shown
};

// The names of the pages the window has, in the tab's order.
std::vector<std::string> question_view_names();

// A fresh view of the page called name, or null when the window has no such page.
std::unique_ptr<QuestionView> make_question_view(const std::string& name);

// The page as the tab shows it: its question, its claim, then the view's
// evidence. The page's exported figure draws the same (page_figure.h).
void draw_question_page(const Frame& f, const vit::QuestionPage& page, QuestionView& view);

}  // namespace ui
