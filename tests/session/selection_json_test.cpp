// The selection's one writer and one reader (session/base/selection_json.h): what
// the state file and lessons write reads back the same, and each wrong field
// is refused in one line naming the file and the field.
#include <gtest/gtest.h>

#include <string>

#include "session/base/selection_json.h"
#include "vit/base/error.h"

namespace selection_json_test {

using nlohmann::json;

session::Selection picked() {
    session::Selection sel;
    sel.layer = 7, sel.head = 2, sel.head_visible = {true, false, true}, sel.source = session::MapSource::MeanOfVisible;
    sel.query = 41, sel.pinned_key = 3, sel.hovered_key = 9;
    return sel;
}

std::string refusal(const json& j) {
    try {
        session::read_selection(session::FieldReader(j, "class.vitscope"));
    } catch (const vit::Error& e) {
        return e.what();
    }
    return "";
}

TEST(SelectionJson, ReadsBackWhatItWrites) {
    const json j = session::selection_json(session::saved_selection(picked()));
    EXPECT_EQ(j, json::parse(R"({"layer": 7, "head": 2, "visible_heads": [0, 2], "map": "mean",
                                 "query": 41, "pinned_key": 3})"));  // the hover is not kept
    const session::SavedSelection back = session::read_selection(session::FieldReader(j, "class.vitscope"));
    EXPECT_EQ(back.layer, 7);
    EXPECT_EQ(back.head, 2);
    EXPECT_EQ(back.visible_heads, (std::vector<int>{0, 2}));
    EXPECT_EQ(back.map, session::MapSource::MeanOfVisible);
    EXPECT_EQ(back.query, 41);
    EXPECT_EQ(back.pinned_key, 3);
}

TEST(SelectionJson, RefusesEachWrongFieldByName) {
    const json good = session::selection_json(session::saved_selection(picked()));
    auto with = [&](const char* key, json value) {
        json j = good;
        j[key] = std::move(value);
        return j;
    };
    json missing = good;
    missing.erase("query");
    EXPECT_EQ(refusal(missing), "class.vitscope: no \"query\"");
    EXPECT_EQ(refusal(with("layer", 1024)), "class.vitscope: \"layer\" is 1024, outside 0..1023");
    EXPECT_EQ(refusal(with("pinned_key", -2)), "class.vitscope: \"pinned_key\" is -2, outside -1..16777216");
    EXPECT_EQ(refusal(with("map", "max")), "class.vitscope: \"map\" is \"max\", not one vitscope knows");
    EXPECT_EQ(refusal(with("visible_heads", 3)), "class.vitscope: \"visible_heads\" is not a list");
    // 2^64 - 1 must not wrap to -1 on the way in.
    EXPECT_EQ(refusal(with("visible_heads", json::array({0, 18446744073709551615ull}))),
              "class.vitscope: \"visible_heads\" holds 18446744073709551615, not a head");
    EXPECT_EQ(refusal(with("head", 1.5)), "class.vitscope: \"head\" is not a whole number");
}

}  // namespace selection_json_test
