// Text inputs bounded and validated before use (issue 24): tour files
// (size, steps, lengths, regions as sets, unclosed '{', a byte order mark),
// settings.json (a FIFO, /dev/zero, a folder, an oversized file, an
// overlong path: defaults and a warning, never a hang), the memory budget's
// range, and configs that contradict the weights in ways shapes cannot show.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "session/dispatch/settings.h"
#include "session/tour/tour.h"
#include "session/tour/tour_limits.h"
#include "support/scratch_dir.h"
#include "vit/base/error.h"
#include "vit/base/memory_budget.h"
#include "vit/model/config.h"

namespace {

namespace fs = std::filesystem;
using vit::testing::ScratchDir;
namespace limits = session::tour_limits;

std::string tour_error(const std::string& text) {
    try {
        session::parse_tour(text, "my.tour");
        return "";
    } catch (const vit::Error& e) {
        return e.what();
    }
}

const std::string kHead = "title: T\nphoto: dog.jpg\n";
const std::string kStep = "step: S\ntext: It is {grid} patches wide.\n";

TEST(TourBounds, AByteOrderMarkIsSkipped) {
    EXPECT_EQ(tour_error("\xEF\xBB\xBF" + kHead + kStep), "");
    EXPECT_EQ(session::parse_tour("\xEF\xBB\xBF" + kHead + kStep, "t").title, "T");
}

TEST(TourBounds, ATitleOfTwentyThousandCharactersIsRefusedNamingTheLine) {
    const std::string why = tour_error(kHead + "step: " + std::string(20000, 'W') + "\ntext: x\n");
    EXPECT_NE(why.find("my.tour:3:"), std::string::npos) << why;
    EXPECT_NE(why.find("limit"), std::string::npos) << why;
    EXPECT_EQ(tour_error(kHead + "step: " + std::string(limits::kTitleBytes, 'W') + "\ntext: x\n"), "");
    EXPECT_NE(tour_error("title: " + std::string(limits::kTitleBytes + 1, 'T') + "\n" + kStep).find("title"),
              std::string::npos);
}

TEST(TourBounds, TooManyStepsAreRefused) {
    std::string many = kHead, enough = kHead;
    for (int i = 0; i < 25000; ++i) many += kStep;
    for (int i = 0; i < limits::kSteps; ++i) enough += kStep;
    EXPECT_NE(tour_error(many).find("more than " + std::to_string(limits::kSteps) + " steps"), std::string::npos);
    EXPECT_EQ(tour_error(enough), "");
}

TEST(TourBounds, LongLinesAndTooMuchTextInAStepAreRefused) {
    EXPECT_NE(tour_error(kHead + "step: S\ntext: " + std::string(limits::kLineBytes, 'x') + "\n").find("-byte limit"),
              std::string::npos);
    std::string wordy = kHead + "step: S\n";
    for (int i = 0; i <= limits::kParagraphs; ++i) wordy += "text: a sentence.\n";
    EXPECT_NE(tour_error(wordy).find("more text than a card shows"), std::string::npos) << tour_error(wordy);
    std::string line = "text: ";
    line.append(1500, 'x').append("\n");  // appended, not "text: " + string: GCC 12 -Warray-bounds misreads that
    std::string long_text = kHead + "step: S\n";
    for (int i = 0; i < 3; ++i) long_text += line;
    EXPECT_NE(tour_error(long_text).find("more text than a card shows"), std::string::npos);
}

TEST(TourBounds, RegionsAreSetsAPatchListedTwiceIsRefused) {
    std::string twice = kHead + "region dog:";
    for (int i = 0; i < 44; ++i) twice += " 0,0-13";
    EXPECT_NE(tour_error(twice + "\n" + kStep).find("region dog lists patch 0,0 more than once"), std::string::npos)
        << tour_error(twice + "\n" + kStep);
    EXPECT_NE(tour_error(kHead + "region dog: 1,2 1,0-3\n" + kStep).find("patch 1,2 more than once"),
              std::string::npos);
    // Two lines of one region are one set too.
    EXPECT_NE(tour_error(kHead + "region dog: 1,2\nregion dog: 1,1-2\n" + kStep).find("more than once"),
              std::string::npos);
    const session::Tour ok = session::parse_tour(kHead + "region dog: 1,3 0,0-2 1,1\n" + kStep, "t");
    EXPECT_EQ(ok.regions.at("dog").size(), 5u);
    std::string regions = kHead;
    for (int i = 0; i <= limits::kRegions; ++i) regions += "region r" + std::to_string(i) + ": 0,0\n";
    EXPECT_NE(tour_error(regions + kStep).find("regions"), std::string::npos);
}

TEST(TourBounds, AnUnclosedBraceIsRefusedNotPrintedLiterally) {
    const std::string why = tour_error(kHead + "step: S\ntext: It is {grid wide\n");
    EXPECT_NE(why.find("my.tour:4:"), std::string::npos) << why;
    EXPECT_NE(why.find("no closing '}'"), std::string::npos) << why;
    EXPECT_NE(tour_error(kHead + "step: S\ntext: {grid} and {patch\n").find("no closing"), std::string::npos);
    EXPECT_EQ(limits::unclosed_brace("{a} {b}"), std::string::npos);
    EXPECT_EQ(limits::unclosed_brace("{a} {b"), 4u);
}

TEST(TourBounds, AnOversizedFileIsRefusedBeforeReading) {
    ScratchDir dir("tour");
    const std::string path = dir.file("big.tour");
    std::ofstream(path) << kHead << kStep << std::string(limits::kFileBytes, '#');
    try {
        session::read_tour(path);
        FAIL() << "accepted";
    } catch (const vit::Error& e) {
        EXPECT_NE(std::string(e.what()).find("limit for a tour"), std::string::npos) << e.what();
    }
}

// --- settings.json ----------------------------------------------------------

void expect_defaults_with_warning(const std::string& path, const std::string& cause) {
    std::string warning;
    const auto start = std::chrono::steady_clock::now();
    const session::Settings s = session::load_settings(path, warning);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5)) << path;
    EXPECT_EQ(s.model_dir, "");
    EXPECT_EQ(s.window_width, 0);
    EXPECT_NE(warning.find(cause), std::string::npos) << path << ": " << warning;
    EXPECT_NE(warning.find("default settings"), std::string::npos) << warning;
}

TEST(SettingsBounds, AFifoDoesNotHang) {
    ScratchDir dir("settings");
    ASSERT_EQ(::mkfifo(dir.file("settings.json").c_str(), 0600), 0);
    expect_defaults_with_warning(dir.file("settings.json"), "not a regular file");
}

TEST(SettingsBounds, ALinkToDevZeroDoesNotGrowMemory) {
    ScratchDir dir("settings");
    fs::create_symlink("/dev/zero", dir.file("settings.json"));
    expect_defaults_with_warning(dir.file("settings.json"), "not a regular file");
}

TEST(SettingsBounds, AFolderSaysSoNotSuccess) {
    ScratchDir dir("settings");
    fs::create_directories(dir.file("settings.json"));
    expect_defaults_with_warning(dir.file("settings.json"), "is a directory");
}

TEST(SettingsBounds, AFileOverTheLimitIsNotRead) {
    ScratchDir dir("settings");
    const std::string path = dir.file("settings.json");
    { std::ofstream(path) << "{}"; }
    fs::resize_file(path, 80u << 20);  // sparse: 80 MiB on paper
    expect_defaults_with_warning(path, "MiB limit");
}

TEST(SettingsBounds, ASymlinkLoopIsNamedAsOne) {
    ScratchDir dir("settings");
    fs::create_symlink(dir.file("b.json"), dir.file("a.json"));
    fs::create_symlink(dir.file("a.json"), dir.file("b.json"));
    expect_defaults_with_warning(dir.file("a.json"), "symbolic links");
}

TEST(SettingsBounds, AnOverlongPathKeepsItsDefault) {
    ScratchDir dir("settings");
    std::ofstream(dir.file("settings.json"))
        << "{\"model\": \"" << std::string(20000, 'm') << "\", \"window_width\": 900}";
    std::string warning;
    const session::Settings s = session::load_settings(dir.file("settings.json"), warning);
    EXPECT_EQ(s.model_dir, "");
    EXPECT_EQ(s.window_width, 900);
    EXPECT_NE(warning.find("model"), std::string::npos) << warning;
}

// --- VITSCOPE_MEMORY_BUDGET -------------------------------------------------

TEST(MemoryBudget, ParsedWithRangeChecks) {
    EXPECT_EQ(vit::parse_memory_budget("512M"), size_t{512} << 20);
    EXPECT_EQ(vit::parse_memory_budget("4G"), size_t{4} << 30);
    EXPECT_EQ(vit::parse_memory_budget("16M"), size_t{16} << 20);
    EXPECT_EQ(vit::parse_memory_budget("1e9"), size_t{1000000000});
    for (const char* bad : {"1e30", "1e30G", "inf", "nan", "0", "-1G", "1M", "lots", "4 G", "", "65T", "100000G"}) {
        try {
            vit::parse_memory_budget(bad);
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const vit::Error& e) {
            EXPECT_NE(std::string(e.what()).find("VITSCOPE_MEMORY_BUDGET"), std::string::npos) << e.what();
        }
    }
}

// --- configs that contradict what shapes cannot show ------------------------

std::string config_error(const std::string& model_args, const std::string& cfg) {
    const std::string text = R"({"architecture": "vit_tiny_patch16_224", "model_args": {)" + model_args +
                             R"(}, "pretrained_cfg": {)" + cfg + "}}";
    try {
        vit::parse_model_config(text, "");
        return "";
    } catch (const vit::Error& e) {
        return e.what();
    }
}

TEST(ConfigBounds, HeadsMustMatchTheArchitecture) {
    EXPECT_EQ(config_error(R"("num_heads": 3)", ""), "");
    for (const char* heads : {R"("num_heads": 4)", R"("num_heads": 192)"})
        EXPECT_NE(config_error(heads, "").find("contradicts the architecture vit_tiny_patch16_224 (3 heads)"),
                  std::string::npos)
            << config_error(heads, "");
}

TEST(ConfigBounds, AClassTokenDeclaredAbsentIsRefused) {
    EXPECT_NE(config_error(R"("class_token": false)", "").find("'class_token' is false"), std::string::npos);
    EXPECT_EQ(config_error(R"("class_token": true)", ""), "");
}

TEST(ConfigBounds, InputSizeMeanAndStdHaveTheirLengths) {
    EXPECT_EQ(config_error("", R"("input_size": [3, 224, 224], "mean": [0.5, 0.5, 0.5], "std": [0.5, 0.5, 0.5])"), "");
    EXPECT_NE(config_error("", R"("input_size": [1, 224, 224])").find("[3, height, width]"), std::string::npos);
    EXPECT_NE(config_error("", R"("input_size": [224, 224])").find("[3, height, width]"), std::string::npos);
    EXPECT_NE(config_error("", R"("mean": [0.5])").find("'pretrained_cfg.mean' must list 3"), std::string::npos);
    EXPECT_NE(config_error("", R"("std": [0.5, 0.5, 0.5, 0.5])").find("'pretrained_cfg.std' must list 3"),
              std::string::npos);
}

TEST(ConfigBounds, ATinyCropPctIsBlamedOnCropPct) {
    const std::string why = config_error("", R"("crop_pct": 1e-6)");
    EXPECT_NE(why.find("crop_pct"), std::string::npos) << why;
    EXPECT_NE(why.find("at most 16384"), std::string::npos) << why;
    EXPECT_EQ(config_error("", R"("crop_pct": 0.05)"), "");
}

}  // namespace
