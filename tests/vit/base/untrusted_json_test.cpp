// vit/base/untrusted_json: nesting bounded before parsing, values cut in errors.
#include <gtest/gtest.h>

#include <string>

#include "vit/base/error.h"
#include "vit/base/untrusted_json.h"

namespace {

std::string nested(int depth, const std::string& inner = "1") {
    return std::string(depth, '[') + inner + std::string(depth, ']');
}

std::string refusal(const std::string& text) {
    try {
        vit::parse_untrusted_json(text, "f.json");
    } catch (const vit::Error& e) {
        return e.what();
    }
    return "";
}

TEST(UntrustedJson, DepthCountsArraysAndObjectsOutsideStrings) {
    EXPECT_EQ(vit::json_nesting_depth("1"), 0);
    EXPECT_EQ(vit::json_nesting_depth(R"({"a": [1, {"b": []}]})"), 4);
    // Brackets inside strings, escaped quotes included, are text.
    EXPECT_EQ(vit::json_nesting_depth(R"(["[[[[", "\"[[[", {"k\\": "{"}])"), 2);
    EXPECT_EQ(vit::json_nesting_depth(nested(100000)), 100000);
}

TEST(UntrustedJson, TheDeepestAllowedParsesAndOneMoreIsRefusedNamingTheDepth) {
    EXPECT_EQ(vit::parse_untrusted_json(nested(vit::kMaxJsonDepth), "f.json").dump().size(),
              static_cast<size_t>(2 * vit::kMaxJsonDepth + 1));
    const std::string why = refusal(nested(vit::kMaxJsonDepth + 1));
    EXPECT_EQ(why, "f.json: JSON nested 65 levels deep (at most 64)");
    // The probe's file: 100,000 levels inside a lesson's field. Refused before nlohmann sees it.
    EXPECT_EQ(refusal(R"({"visible_heads": )" + nested(100000) + "}"),
              "f.json: JSON nested 100001 levels deep (at most 64)");
}

TEST(UntrustedJson, InvalidJsonIsOneShortLineEvenForAHugeUnterminatedString) {
    std::string text = "{\"a\": \"";
    text.append(10 << 20, 'x');  // appended: "..." + std::string(n, 'x') trips GCC 12's false -Warray-bounds
    const std::string why = refusal(text);
    EXPECT_EQ(why.rfind("f.json: not valid JSON (", 0), 0u) << why;
    EXPECT_LT(why.size(), 300u);
    EXPECT_EQ(why.find('\n'), std::string::npos);
}

TEST(UntrustedJson, QuotesAreCutAtCharactersNotBytes) {
    EXPECT_EQ(vit::quote_for_error(std::string("short")), "short");
    EXPECT_EQ(vit::quote_for_error(std::string(80, 'a')), std::string(80, 'a'));
    EXPECT_EQ(vit::quote_for_error(std::string(81, 'a')), std::string(80, 'a') + "…");
    // 81 two-byte characters: cut after 80 of them, never inside one.
    std::string umlauts;
    for (int i = 0; i < 81; ++i) umlauts += "ü";
    EXPECT_EQ(vit::quote_for_error(umlauts), umlauts.substr(0, 160) + "…");
    EXPECT_EQ(vit::quote_for_error(std::string("two\nlines")), "two\\nlines");
    // A JSON value: its text, cut; invalid UTF-8 inside is replaced, not thrown on.
    EXPECT_EQ(vit::quote_for_error(nlohmann::json::parse(nested(50))), nested(50).substr(0, 80) + "…");
    EXPECT_EQ(vit::quote_for_error(nlohmann::json(std::string("a\xff"))), "\"a\xEF\xBF\xBD\"");
}

}  // namespace
