// The window script's verbs: every room's table joined (dispatch/script_verbs.h)
// is the list docs/window-scripts.md documents, no verb in two rooms, and each
// verb makes the requests of its own room only as the window would carry them.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "session/dispatch/script_verbs.h"

namespace {

std::set<std::string> documented_verbs() {
    std::ifstream in(std::string(VITSCOPE_SOURCE_DIR) + "/docs/window-scripts.md");
    std::set<std::string> verbs;
    const std::regex row(R"(^\| `([a-z-]+))");
    for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (std::regex_search(line, m, row)) verbs.insert(m[1]);
    }
    return verbs;
}

TEST(ScriptVerbs, TheDocsListEveryVerbAndNoOther) {
    std::set<std::string> known;
    for (const session::ScriptVerb& v : session::script_verbs()) known.insert(std::string(v.name));
    EXPECT_GT(known.size(), 40u);
    EXPECT_EQ(documented_verbs(), known);
}

TEST(ScriptVerbs, EachNameBelongsToOneRoom) {
    std::set<std::string> seen;
    for (const session::ScriptVerb& v : session::script_verbs())
        EXPECT_TRUE(seen.insert(std::string(v.name)).second) << v.name;
    EXPECT_NE(session::find_script_verb("select"), nullptr);
    EXPECT_EQ(session::find_script_verb("selec"), nullptr);
}

TEST(ScriptVerbs, AVerbsRequestsReachTheWindowAsActionsAndCommands) {
    session::AppState s;
    std::vector<session::Request> out;
    const session::ScriptCommand tour{"tour", "default", "t:1"};
    const session::VerbWait w = session::find_script_verb("tour")->run(tour, s, out);
    ASSERT_EQ(out.size(), 1u);
    ASSERT_TRUE(std::holds_alternative<session::Command>(out[0]));
    EXPECT_TRUE(std::holds_alternative<session::cmd::OpenTour>(std::get<session::Command>(out[0])));
    EXPECT_EQ(w.frames, 2);
    out.clear();
    session::find_script_verb("theme")->run({"theme", "light", "t:2"}, s, out);
    ASSERT_EQ(out.size(), 1u);
    ASSERT_TRUE(std::holds_alternative<session::Action>(out[0]));
    EXPECT_TRUE(std::holds_alternative<session::act::SetTheme>(std::get<session::Action>(out[0])));
}

TEST(ScriptVerbs, ARefusedLineNamesItselfAndAsksForNothing) {
    session::AppState s;  // no trace: select has nothing to select on
    std::vector<session::Request> out;
    try {
        session::find_script_verb("select")->run({"select", "3,4", "s.txt:7"}, s, out);
        FAIL() << "select without a trace was accepted";
    } catch (const std::exception& e) {
        EXPECT_EQ(std::string(e.what()), "s.txt:7: select needs a model run on a photo");
    }
    EXPECT_TRUE(out.empty());
}

}  // namespace
