// ui::bounded: outside text (paths, names, class labels, errors) as the window draws it.
#include <gtest/gtest.h>

#include <string>

#include "ui/widgets/bounded_text.h"

using ui::bounded;

namespace {

// Whether s is well-formed UTF-8 (no character cut in two).
bool valid_utf8(const std::string& s) {
    for (size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        const size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        if (n == 0 || i + n > s.size()) return false;
        for (size_t k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
        i += n;
    }
    return true;
}

const std::string kEllipsis = "\u2026";

}  // namespace

TEST(BoundedText, ShortTextIsKeptWordForWord) {
    EXPECT_EQ(bounded(""), "");
    EXPECT_EQ(bounded("dog.jpg"), "dog.jpg");
    EXPECT_EQ(bounded("ä ö ü 犬"), "ä ö ü 犬");
    const std::string exactly(ui::kShownTextBytes, 'x');
    EXPECT_EQ(bounded(exactly), exactly);  // at the limit: nothing cut, no ellipsis
    EXPECT_EQ(bounded("abcdef", 6), "abcdef");
}

TEST(BoundedText, LongTextIsCutToTheLimitWithAnEllipsis) {
    const std::string label(100000, 'a');  // a class label of 100,000 characters
    const std::string shown = bounded(label);
    EXPECT_EQ(shown.size(), ui::kShownTextBytes);
    EXPECT_EQ(shown, std::string(ui::kShownTextBytes - 3, 'a') + kEllipsis);
    EXPECT_EQ(bounded("abcdefgh", 7), "abcd" + kEllipsis);
    EXPECT_EQ(bounded(std::string(ui::kShownTextBytes + 1, 'y')).size(), ui::kShownTextBytes);
}

TEST(BoundedText, NeverCutsACharacterInTwo) {
    // Two-, three- and four-byte characters, cut at every limit: the result is
    // valid UTF-8, at most the limit, and a beginning of the text plus "…".
    for (const std::string ch : {"é", "犬", "😀"}) {
        std::string text;
        for (int i = 0; i < 50; ++i) text += ch + "a";
        for (size_t limit = 3; limit < text.size(); ++limit) {
            const std::string shown = bounded(text, limit);
            ASSERT_LE(shown.size(), limit) << ch << " " << limit;
            ASSERT_TRUE(valid_utf8(shown)) << ch << " " << limit;
            ASSERT_GE(shown.size() + ch.size(), limit + 1) << "cut further back than one character";
            const std::string kept = shown.substr(0, shown.size() - 3);
            ASSERT_EQ(shown.substr(kept.size()), kEllipsis);
            ASSERT_EQ(text.compare(0, kept.size(), kept), 0);
        }
    }
}

TEST(BoundedText, AFileNameOfTheFileSystemsLongestAndAPathOfPathMax) {
    // 255 bytes of 犬 (3 bytes each: 85 characters) is a name the file system allows: shown whole.
    std::string name;
    while (name.size() + 3 <= 255) name += "犬";
    EXPECT_EQ(bounded(name), name);
    // A 4096-byte path of nested folders is shortened on a boundary.
    std::string path;
    while (path.size() < 4096) path += "/" + name;
    const std::string shown = bounded(path);
    EXPECT_LE(shown.size(), ui::kShownTextBytes);
    EXPECT_TRUE(valid_utf8(shown));
    EXPECT_EQ(shown.substr(shown.size() - 3), kEllipsis);
}

TEST(BoundedText, LimitsTooSmallForTheEllipsisAndANulByte) {
    EXPECT_EQ(bounded("abcdef", 0), "");
    EXPECT_EQ(bounded("abcdef", 2), "");
    EXPECT_EQ(bounded("abcdef", 3), kEllipsis);
    // ImGui reads up to a NUL: so does the bound (the rest is never drawn).
    EXPECT_EQ(bounded(std::string("ab\0cd", 5)), "ab");
    // Not UTF-8 at all (a run of continuation bytes): still within the limit.
    EXPECT_LE(bounded(std::string(5000, '\x80')).size(), ui::kShownTextBytes);
}
