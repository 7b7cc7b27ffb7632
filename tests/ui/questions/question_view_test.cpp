// The one list of Questions (vit::all_questions) against the window's pages:
// every page in the list has a view in the Questions tab and the tab has no
// page the list lacks; names are unique, every question names an existing
// analysis module and a CSV header, and a question without a page of its own
// is drawn on a page that exists.
#include <filesystem>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "ui/panels/questions_panel.h"
#include "vit/analysis/questions.h"

namespace {

TEST(QuestionTableTest, TheTabHasAViewForEveryPageAndNoOther) {
    std::vector<std::string> pages;
    for (const vit::QuestionPage& p : vit::question_pages()) {
        pages.push_back(p.name);
        EXPECT_NE(ui::make_question_view(p.name), nullptr) << p.name;
    }
    EXPECT_EQ(ui::question_view_names(), pages);
}

TEST(QuestionTableTest, EveryQuestionIsCompleteAndNamedOnce) {
    std::set<std::string> names;
    for (const vit::QuestionPage& q : vit::all_questions()) {
        EXPECT_TRUE(names.insert(q.name).second) << "twice: " << q.name;
        EXPECT_FALSE(std::string(q.title).empty()) << q.name;
        EXPECT_FALSE(std::string(q.columns).empty()) << q.name;
        EXPECT_TRUE(std::filesystem::exists(std::string(VITSCOPE_SOURCE_DIR) + "/src/" + q.analysis))
            << q.name << ": " << q.analysis;
        if (q.has_page()) {
            EXPECT_FALSE(std::string(q.claim).empty()) << q.name;
            EXPECT_EQ(vit::find_question_page(q.name), &q);
        } else {
            EXPECT_EQ(vit::find_question_page(q.name), nullptr) << q.name;
            EXPECT_NE(vit::find_question_page(q.figure_page()), nullptr)
                << q.name << " is drawn on " << q.figure_page();
        }
        EXPECT_EQ(vit::find_question(q.name), &q);
    }
    EXPECT_EQ(vit::find_question("no such question"), nullptr);
}

}  // namespace
