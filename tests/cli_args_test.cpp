// The command-line parser every vitscope command shares (app/cli_args.h):
// commands, options with and without '=', flags, whole numbers in a range,
// patches and query tokens checked against a trace.
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "app/cli_args.h"
#include "support/synthetic_session.h"
#include "vit/base/error.h"

namespace {

using app::CliArgs;

// parse_cli on an argv written as a list (argv[0] is the program).
CliArgs parse(std::initializer_list<const char*> words, const std::set<std::string>& flags = {"--mean-heads", "--quit"}) {
    std::vector<std::string> storage = {"vitscope"};
    storage.insert(storage.end(), words.begin(), words.end());
    std::vector<char*> argv;
    for (auto& w : storage) argv.push_back(w.data());
    argv.push_back(nullptr);
    return app::parse_cli(static_cast<int>(storage.size()), argv.data(), flags);
}

// The message of the vit::Error `f` throws ("" when it throws none).
template <class F>
std::string error_of(F f) {
    try {
        f();
    } catch (const vit::Error& e) {
        return e.what();
    }
    return "";
}

TEST(CliArgsTest, CommandOptionsFlagsAndPositionals) {
    const CliArgs a = parse({"attention", "dog.jpg", "--layer", "8", "--head=1", "--mean-heads", "-o", "out.png", "x"});
    EXPECT_EQ(a.command, "attention");
    EXPECT_EQ(a.positional, (std::vector<std::string>{"dog.jpg", "x"}));
    EXPECT_EQ(a.get("--layer"), "8");
    EXPECT_EQ(a.get("--head"), "1");
    EXPECT_EQ(a.get("--output"), "out.png");  // -o is --output
    EXPECT_TRUE(a.has("--mean-heads"));
    EXPECT_TRUE(a.flags.count("--mean-heads"));
    EXPECT_FALSE(a.options.count("--mean-heads"));
    EXPECT_FALSE(a.has("--quit"));
    EXPECT_EQ(a.get("--model", "fallback"), "fallback");
    EXPECT_EQ(a.image(), "dog.jpg");
}

TEST(CliArgsTest, NoCommandIsTheWindow) {
    const CliArgs a = parse({"dog.jpg", "--quit"});
    EXPECT_EQ(a.command, "");
    EXPECT_EQ(a.positional, (std::vector<std::string>{"dog.jpg"}));
    EXPECT_TRUE(a.has("--quit"));
    // A command word later on is a positional, not a command.
    EXPECT_EQ(parse({"dog.jpg", "classify"}).positional, (std::vector<std::string>{"dog.jpg", "classify"}));
}

TEST(CliArgsTest, EveryCommandIsRecognised) {
    for (const char* c : {"classify", "attention", "export", "info", "dump", "explain", "help"})
        EXPECT_EQ(parse({c}).command, c);
}

TEST(CliArgsTest, ValuesMayLookLikeAnythingAndTheLastWins) {
    const CliArgs a = parse({"--select", "-3", "--title", "--x", "--layer", "1", "--layer=2", "--note="});
    EXPECT_EQ(a.get("--select"), "-3");
    EXPECT_EQ(a.get("--title"), "--x");  // an option's value is taken as it is
    EXPECT_EQ(a.get("--layer"), "2");
    EXPECT_TRUE(a.has("--note"));
    EXPECT_EQ(a.get("--note", "unset"), "");
    EXPECT_EQ(parse({"--"}).positional, (std::vector<std::string>{"--"}));
}

TEST(CliArgsTest, AnOptionWithoutItsValueIsRefused) {
    EXPECT_EQ(error_of([] { parse({"attention", "dog.jpg", "--layer"}); }), "--layer needs a value");
}

TEST(CliArgsTest, MissingImageIsNamed) {
    EXPECT_NE(error_of([] { parse({"classify"}).image(); }).find("missing IMAGE"), std::string::npos);
}

TEST(CliArgsTest, GetIntAcceptsWholeNumbersInRangeOnly) {
    const CliArgs a = parse({"--layer", "11", "--head", "-1", "--top", "3x", "--big", "99999999999999999999",
                             "--empty="});
    EXPECT_EQ(a.get_int("--layer", 0, 11), 11);
    EXPECT_EQ(a.get_int_opt("--layer", 0, 11), 11);
    EXPECT_EQ(a.get_int_opt("--absent", 0, 11), std::nullopt);
    EXPECT_EQ(error_of([&] { a.get_int("--layer", 0, 10); }), "--layer 11 is out of range (0..10)");
    EXPECT_EQ(error_of([&] { a.get_int("--head", 0, 2); }), "--head -1 is out of range (0..2)");
    EXPECT_EQ(error_of([&] { a.get_int("--top", 1, 10); }), "--top expects a whole number, got '3x'");
    EXPECT_EQ(error_of([&] { a.get_int("--big", 0, 10); }),
              "--big expects a whole number, got '99999999999999999999'");
    EXPECT_EQ(error_of([&] { a.get_int("--empty", 0, 10); }), "--empty expects a whole number, got ''");
    EXPECT_EQ(error_of([&] { a.get_int("--absent", 0, 10); }), "missing --absent");
}

TEST(CliArgsTest, ParsePatch) {
    EXPECT_EQ(app::parse_patch("5,7"), std::make_pair(5, 7));
    EXPECT_EQ(app::parse_patch("0,0"), std::make_pair(0, 0));
    for (const char* bad : {"5", "5,", ",7", "a,b", "5;7", "5,7,9", "1.5,2", ""})
        EXPECT_EQ(error_of([&] { app::parse_patch(bad); }),
                  std::string("--patch expects ROW,COL (e.g. 5,7), got '") + bad + "'")
            << bad;
    for (const char* out : {"-1,3", "3,-1", "100001,0", "0,99999999999"})
        EXPECT_NE(error_of([&] { app::parse_patch(out); }).find("out of range"), std::string::npos) << out;
}

TEST(CliArgsTest, QueryTokenFromPatchOrQuery) {
    const vit::Trace t = vit::testing::shaped_trace(14, 1, 1, /*prefix=*/5);  // tokens 0..200
    EXPECT_EQ(app::query_token(parse({"--patch", "5,7"}), t), 5 + 5 * 14 + 7);
    EXPECT_EQ(app::query_token(parse({"--query", "cls"}), t), 0);
    EXPECT_EQ(app::query_token(parse({"--query", "CLS"}), t), 0);
    EXPECT_EQ(app::query_token(parse({"--query", "3"}), t), 3);
    EXPECT_EQ(app::query_token(parse({"--query", "200"}), t), 200);
    EXPECT_EQ(error_of([&] { app::query_token(parse({"--query", "201"}), t); }), "--query 201 is out of range (0..200)");
    EXPECT_EQ(error_of([&] { app::query_token(parse({"--patch", "14,0"}), t); }),
              "--patch 14,0 is outside the 14 x 14 patch grid (rows and columns 0..13)");
    const std::string neither = error_of([&] { app::query_token(parse({}), t); });
    EXPECT_EQ(neither, "give exactly one of --patch ROW,COL or --query cls|INDEX");
    EXPECT_EQ(error_of([&] { app::query_token(parse({"--patch", "1,1", "--query", "0"}), t); }), neither);
}

TEST(CliArgsTest, ModelIsTheOptionElseTheEnvironment) {
    EXPECT_EQ(app::resolve_model_dir(parse({"--model", "/m/a"})), "/m/a");
    const char* before = std::getenv("VITSCOPE_MODEL");
    const std::string saved = before ? before : "";
    ::setenv("VITSCOPE_MODEL", "/m/from_env", 1);
    EXPECT_EQ(app::resolve_model_dir(parse({})), "/m/from_env");
    EXPECT_EQ(app::resolve_model_dir(parse({"--model=/m/b"})), "/m/b");
    if (before) ::setenv("VITSCOPE_MODEL", saved.c_str(), 1);
    else ::unsetenv("VITSCOPE_MODEL");
}

}  // namespace
