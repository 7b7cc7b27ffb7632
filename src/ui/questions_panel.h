// The Questions tab: the list of questions on the left, the chosen page on the
// right (its question, its plain-language claim, then the page's evidence).
#pragma once
#include <map>
#include <memory>
#include <string>

#include "frame.h"
#include "question_view.h"

namespace ui {

class QuestionsPanel {
public:
    void draw(const Frame& f);

private:
    std::map<std::string, std::unique_ptr<QuestionView>> views_;  // made when first shown
};

}  // namespace ui
