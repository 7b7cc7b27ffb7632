// The command-line parser every vitscope command shares (app/cli_args.h):
// commands, options with and without '=', flags, strictness (unknown options,
// options of other commands, repeats, extra arguments), help and version,
// whole numbers in a range,
// patches and query tokens checked against a trace.
#include <cstdlib>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "app/cli_args.h"
#include "app/cli_spec.h"
#include "support/synthetic_session.h"
#include "vit/base/error.h"

namespace {

using app::CliArgs;

// parse_cli on an argv written as a list (argv[0] is the program).
CliArgs parse(std::initializer_list<const char*> words) {
    std::vector<std::string> storage = {"vitscope"};
    storage.insert(storage.end(), words.begin(), words.end());
    std::vector<char*> argv;
    for (auto& w : storage) argv.push_back(w.data());
    argv.push_back(nullptr);
    return app::parse_cli(static_cast<int>(storage.size()), argv.data());
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

// A CliArgs holding these options as given (no command's rules), for get_int.
CliArgs with_options(std::map<std::string, std::string> options) {
    CliArgs a;
    a.options = std::move(options);
    return a;
}

TEST(CliArgsTest, CommandOptionsFlagsAndPositionals) {
    const CliArgs a = parse({"attention", "dog.jpg", "--layer", "8", "--head=1", "--force", "-o", "out.csv", "x.jpg"});
    EXPECT_EQ(a.command, "attention");
    EXPECT_EQ(a.positional, (std::vector<std::string>{"dog.jpg", "x.jpg"}));  // several photos
    EXPECT_EQ(a.get("--layer"), "8");
    EXPECT_EQ(a.get("--head"), "1");
    EXPECT_EQ(a.get("--output"), "out.csv");  // -o is --output
    EXPECT_TRUE(a.has("--force"));
    EXPECT_TRUE(a.flags.count("--force"));
    EXPECT_FALSE(a.options.count("--force"));
    EXPECT_FALSE(a.has("--mean-heads"));
    EXPECT_EQ(a.get("--model", "fallback"), "fallback");
    EXPECT_EQ(a.image(), "dog.jpg");
}

TEST(CliArgsTest, NoCommandIsTheWindow) {
    const CliArgs a = parse({"dog.jpg", "--quit"});
    EXPECT_EQ(a.command, "");
    EXPECT_EQ(a.positional, (std::vector<std::string>{"dog.jpg"}));
    EXPECT_TRUE(a.has("--quit"));
    // A command word later on is an argument, not a command: the window takes one photo.
    EXPECT_EQ(error_of([] {
                  parse({"dog.jpg", "classify"});
              }),
              "vitscope: unexpected argument 'classify' (see vitscope --help)");
    EXPECT_EQ(error_of([] { parse({"clasify", "dog.jpg"}); }), "unknown command 'clasify' (see vitscope --help)");
}

TEST(CliArgsTest, EveryCommandIsRecognised) {
    for (const char* c : {"info", "help", "version"}) EXPECT_EQ(parse({c}).command, c);
    for (const char* c : {"classify", "attention", "export", "dump", "explain", "tour", "sweep", "lesson"}) {
        EXPECT_EQ(parse({c, "dog.jpg"}).command, c);
        // Each needs its photo, and says which command and where to look.
        EXPECT_EQ(error_of([&] { parse({c}); }), std::string(c) + ": missing IMAGE (see vitscope " + c + " --help)");
    }
}

TEST(CliArgsTest, UnknownOptionsAndOptionsOfOtherCommandsAreRefusedByName) {
    EXPECT_EQ(error_of([] {
                  parse({"classify", "dog.jpg", "--top", "1", "--bogus-flag", "5"});
              }),
              "classify: unknown option --bogus-flag (see vitscope classify --help)");
    EXPECT_EQ(error_of([] {
                  parse({"classify", "dog.jpg", "--layer", "3"});
              }),
              "classify does not take --layer (see vitscope classify --help)");
    EXPECT_EQ(error_of([] {
                  parse({"dump", "dog.jpg", "--only", "attn"});
              }),
              "dump: unknown option --only (see vitscope dump --help)");
    EXPECT_EQ(error_of([] { parse({"info", "--top=3"}); }), "info does not take --top (see vitscope info --help)");
    EXPECT_EQ(error_of([] {
                  parse({"classify", "dog.jpg", "-x"});
              }),
              "classify: unknown option -x (see vitscope classify --help)");
    EXPECT_EQ(error_of([] {
                  parse({"info", "extra"});
              }),
              "info: unexpected argument 'extra' (see vitscope info --help)");
    EXPECT_EQ(error_of([] {
                  parse({"lesson", "a.jpg", "b.jpg"});
              }),
              "lesson: unexpected argument 'b.jpg' (see vitscope lesson --help)");
}

TEST(CliArgsTest, ValuesFlagsAndRepeats) {
    const CliArgs a = parse({"--select", "-3", "--layer=2", "--tour="});
    EXPECT_EQ(a.get("--select"), "-3");  // a value may start with '-'
    EXPECT_EQ(a.get("--layer"), "2");
    EXPECT_TRUE(a.has("--tour"));
    EXPECT_EQ(a.get("--tour", "unset"), "");
    EXPECT_EQ(error_of([] {
                  parse({"attention", "dog.jpg", "--layer"});
              }),
              "attention: --layer needs a value (see vitscope attention --help)");
    EXPECT_EQ(error_of([] {
                  parse({"attention", "dog.jpg", "--layer", "--head", "1"});
              }),
              "attention: --layer needs a value (see vitscope attention --help)");
    EXPECT_EQ(error_of([] {
                  parse({"export", "dog.jpg", "--force=yes"});
              }),
              "export: --force takes no value (see vitscope export --help)");
    EXPECT_EQ(error_of([] {
                  parse({"attention", "dog.jpg", "--layer", "1", "--layer=2"});
              }),
              "attention: --layer given twice (see vitscope attention --help)");
    EXPECT_EQ(error_of([] {
                  parse({"classify", "dog.jpg", "-o", "a", "--csv", "b"});
              }),
              "classify: --csv given twice (see vitscope classify --help)");  // one output, two spellings
}

TEST(CliArgsTest, DoubleDashEndsTheOptionsAndDashIsAnArgument) {
    const CliArgs a = parse({"classify", "--top", "2", "--", "--odd name.jpg", "-"});
    EXPECT_EQ(a.positional, (std::vector<std::string>{"--odd name.jpg", "-"}));
    EXPECT_EQ(parse({"classify", "dog.jpg", "-o", "-"}).get("--output"), "-");
    EXPECT_EQ(parse({"tour", "dog.jpg", "--csv", "c.csv"}).get("--claims"), "c.csv");  // tour's --csv is --claims
}

TEST(CliArgsTest, HelpAnywhereAndVersionFirst) {
    for (auto words : {std::vector<const char*>{"classify", "--help"},
                       {"classify", "-h"},
                       {"classify", "dog.jpg", "--bogus", "-h"},
                       {"help", "classify"}}) {
        std::vector<std::string> storage = {"vitscope"};
        storage.insert(storage.end(), words.begin(), words.end());
        std::vector<char*> argv;
        for (auto& w : storage) argv.push_back(w.data());
        const CliArgs a = app::parse_cli(static_cast<int>(argv.size()), argv.data());
        EXPECT_EQ(a.command, "help");
        EXPECT_EQ(a.positional, (std::vector<std::string>{"classify"}));
    }
    EXPECT_EQ(parse({"--help"}).command, "help");
    EXPECT_TRUE(parse({"-h"}).positional.empty());
    EXPECT_EQ(parse({"--version"}).command, "version");
    EXPECT_EQ(parse({"-V"}).command, "version");
    EXPECT_EQ(error_of([] {
                  parse({"--version", "dog.jpg"});
              }),
              "vitscope: unexpected argument 'dog.jpg' after --version");
    EXPECT_EQ(error_of([] {
                  parse({"version", "x"});
              }),
              "version: unexpected argument 'x' (see vitscope version --help)");
    EXPECT_EQ(error_of([] { parse({"help", "nosuch"}); }), "help: unknown command 'nosuch' (see vitscope --help)");
    // After "--" it is a photo's name.
    EXPECT_EQ(parse({"classify", "--", "-h"}).positional, (std::vector<std::string>{"-h"}));
}

TEST(CliArgsTest, EveryOptionOfEveryCommandIsInItsUsage) {
    for (const app::CommandSpec& spec : app::command_specs()) {
        for (const auto* names : {&spec.options, &spec.flags})
            for (const std::string& name : *names) {
                const std::string shown = name == "--output" ? "-o" : name;
                EXPECT_NE(spec.usage.find(shown), std::string::npos) << spec.name << ": " << name;
            }
        for (const auto& [alias, meaning] : spec.aliases)
            EXPECT_NE(spec.usage.find(alias), std::string::npos) << spec.name << ": " << alias;
    }
}

TEST(CliArgsTest, MissingImageIsNamed) {
    CliArgs none;
    EXPECT_NE(error_of([&] { none.image(); }).find("missing IMAGE"), std::string::npos);
}

TEST(CliArgsTest, GetIntAcceptsWholeNumbersInRangeOnly) {
    const CliArgs a = with_options(
        {{"--layer", "11"}, {"--head", "-1"}, {"--top", "3x"}, {"--big", "99999999999999999999"}, {"--empty", ""}});
    EXPECT_EQ(a.get_int("--layer", 0, 11), 11);
    EXPECT_EQ(a.get_int_opt("--layer", 0, 11), 11);
    EXPECT_EQ(a.get_int_opt("--absent", 0, 11), std::nullopt);
    EXPECT_EQ(error_of([&] { a.get_int("--layer", 0, 10); }), "--layer 11 is out of range (0..10)");
    EXPECT_EQ(error_of([&] { a.get_int("--head", 0, 2); }), "--head -1 is out of range (0..2)");
    EXPECT_EQ(error_of([&] { a.get_int("--top", 1, 10); }), "--top expects a whole number, got '3x'");
    EXPECT_EQ(error_of([&] { a.get_int("--big", 0, 10); }), "--big expects a whole number, got '99999999999999999999'");
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
    EXPECT_EQ(app::query_token(parse({"attention", "x.jpg", "--patch", "5,7"}), t), 5 + 5 * 14 + 7);
    EXPECT_EQ(app::query_token(parse({"attention", "x.jpg", "--query", "cls"}), t), 0);
    EXPECT_EQ(app::query_token(parse({"attention", "x.jpg", "--query", "CLS"}), t), 0);
    EXPECT_EQ(app::query_token(parse({"attention", "x.jpg", "--query", "3"}), t), 3);
    EXPECT_EQ(app::query_token(parse({"attention", "x.jpg", "--query", "200"}), t), 200);
    EXPECT_EQ(error_of([&] {
                  app::query_token(parse({"attention", "x.jpg", "--query", "201"}), t);
              }),
              "--query 201 is out of range (0..200)");
    EXPECT_EQ(error_of([&] {
                  app::query_token(parse({"attention", "x.jpg", "--patch", "14,0"}), t);
              }),
              "--patch 14,0 is outside the 14 x 14 patch grid (rows and columns 0..13)");
    const std::string neither = error_of([&] { app::query_token(parse({"attention", "x.jpg"}), t); });
    EXPECT_EQ(neither, "give exactly one of --patch ROW,COL or --query cls|INDEX");
    EXPECT_EQ(error_of([&] {
                  app::query_token(parse({"attention", "x.jpg", "--patch", "1,1", "--query", "0"}), t);
              }),
              neither);
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
