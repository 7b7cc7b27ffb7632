// The settings file (session/dispatch/settings.h): every field survives a round trip;
// a missing, truncated or wrongly typed file gives defaults and a warning and
// never throws; saving writes the whole file or nothing.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "gfx/style_names.h"
#include "session/dispatch/settings.h"
#include "support/scratch_dir.h"
#include "vit/base/error.h"

namespace {

namespace fs = std::filesystem;
using session::Settings;
using vit::testing::ScratchDir;

void write_text(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

// Every field away from its default.
Settings unusual_settings() {
    Settings s;
    s.model_dir = "/models/deit small";
    s.image_path = "/photos/\u00e9t\u00e9 \"2024\".jpg";
    s.browse_dir = "/photos";
    s.export_dir = "/out/figures";
    s.style.colormap = gfx::Colormap::Turbo;
    s.style.normalization = gfx::Normalization::Log;
    s.style.opacity = 0.35f;
    s.style.fade = false;
    s.style.bilinear = true;
    s.style.show_grid = false;
    s.temperature = 2.5f;
    s.window_width = 1920;
    s.window_height = 1080;
    s.tour_offered = true;
    s.theme = session::AppState::Theme::Light;
    return s;
}

// Field by field, so a failure names the field.
void expect_same(const Settings& got, const Settings& want) {
    EXPECT_EQ(got.model_dir, want.model_dir);
    EXPECT_EQ(got.image_path, want.image_path);
    EXPECT_EQ(got.browse_dir, want.browse_dir);
    EXPECT_EQ(got.export_dir, want.export_dir);
    EXPECT_EQ(got.style.colormap, want.style.colormap);
    EXPECT_EQ(got.style.normalization, want.style.normalization);
    EXPECT_EQ(got.style.opacity, want.style.opacity);
    EXPECT_EQ(got.style.fade, want.style.fade);
    EXPECT_EQ(got.style.bilinear, want.style.bilinear);
    EXPECT_EQ(got.style.show_grid, want.style.show_grid);
    EXPECT_EQ(got.temperature, want.temperature);
    EXPECT_EQ(got.window_width, want.window_width);
    EXPECT_EQ(got.window_height, want.window_height);
    EXPECT_EQ(got.tour_offered, want.tour_offered);
    EXPECT_EQ(got.theme, want.theme);
}

void expect_defaults(const Settings& s) { expect_same(s, Settings{}); }

TEST(SettingsTest, EveryFieldSurvivesARoundTrip) {
    ScratchDir dir("settings");
    const std::string path = dir.file("deep/er/settings.json");  // folders made as needed
    const Settings saved = unusual_settings();
    session::save_settings(path, saved);
    std::string warning = "stale";
    const Settings got = session::load_settings(path, warning);
    EXPECT_EQ(warning, "");
    expect_same(got, saved);
}

TEST(SettingsTest, EveryColormapAndScaleSurvivesARoundTrip) {
    ScratchDir dir("settings");
    for (gfx::Colormap c : gfx::kColormaps)
        for (gfx::Normalization n : gfx::kNormalizations) {
            Settings s;
            s.style.colormap = c;
            s.style.normalization = n;
            session::save_settings(dir.file("s.json"), s);
            std::string warning;
            const Settings got = session::load_settings(dir.file("s.json"), warning);
            EXPECT_EQ(got.style.colormap, c);
            EXPECT_EQ(got.style.normalization, n);
            EXPECT_EQ(warning, "");
        }
}

TEST(SettingsTest, AMissingFileGivesDefaultsQuietly) {
    ScratchDir dir("settings");
    std::string warning = "stale";
    expect_defaults(session::load_settings(dir.file("none.json"), warning));
    EXPECT_EQ(warning, "");
}

TEST(SettingsTest, TruncatedOrNonObjectJsonGivesDefaultsAndAWarning) {
    ScratchDir dir("settings");
    session::save_settings(dir.file("good.json"), unusual_settings());
    const std::string good = read_text(dir.file("good.json"));
    const std::pair<std::string, const char*> cases[] = {{good.substr(0, good.size() / 2), "not valid JSON"},
                                                         {"", "not valid JSON"},
                                                         {std::string("\x89PNG\r\n\x1a\n", 8), "not valid JSON"},
                                                         {"[1, 2]", "not a JSON object"},
                                                         {"\"model\"", "not a JSON object"},
                                                         {std::string(100, '[') + std::string(100, ']'),
                                                          "nested 100 levels deep"}};
    for (const auto& [text, says] : cases) {
        write_text(dir.file("bad.json"), text);
        std::string warning;
        Settings got;
        ASSERT_NO_THROW(got = session::load_settings(dir.file("bad.json"), warning));
        expect_defaults(got);
        EXPECT_NE(warning.find(dir.file("bad.json")), std::string::npos) << warning;
        EXPECT_NE(warning.find(says), std::string::npos) << warning;
    }
}

TEST(SettingsTest, AFolderInsteadOfAFileGivesDefaultsAndAWarning) {
    ScratchDir dir("settings");
    fs::create_directories(dir.file("settings.json"));
    std::string warning;
    Settings got;
    ASSERT_NO_THROW(got = session::load_settings(dir.file("settings.json"), warning));
    expect_defaults(got);
    EXPECT_FALSE(warning.empty());
}

TEST(SettingsTest, WrongTypesKeepTheirDefaultsTheRestIsRead) {
    ScratchDir dir("settings");
    write_text(dir.file("s.json"), R"({
      "model": 42, "image": "/photos/cat.png", "browse_dir": ["x"], "export_dir": null,
      "temperature": "hot", "window_width": 1280, "window_height": {"h": 1}, "theme": "sepia",
      "overlay": {"colormap": "magma", "normalization": 3, "opacity": "half",
                  "fade": false, "bilinear": "yes", "grid": false}})");
    std::string warning;
    Settings got;
    ASSERT_NO_THROW(got = session::load_settings(dir.file("s.json"), warning));
    const Settings d;
    EXPECT_EQ(got.model_dir, d.model_dir);
    EXPECT_EQ(got.image_path, "/photos/cat.png");
    EXPECT_EQ(got.browse_dir, d.browse_dir);
    EXPECT_EQ(got.export_dir, d.export_dir);
    EXPECT_EQ(got.temperature, d.temperature);
    EXPECT_EQ(got.window_width, 1280);
    EXPECT_EQ(got.window_height, d.window_height);
    EXPECT_EQ(got.theme, d.theme);
    EXPECT_EQ(got.style.colormap, gfx::Colormap::Magma);
    EXPECT_EQ(got.style.normalization, d.style.normalization);
    EXPECT_EQ(got.style.opacity, d.style.opacity);
    EXPECT_FALSE(got.style.fade);
    EXPECT_EQ(got.style.bilinear, d.style.bilinear);
    EXPECT_FALSE(got.style.show_grid);
    for (const char* field : {"model", "browse_dir", "export_dir", "temperature", "window_height", "theme",
                              "overlay.normalization", "overlay.opacity", "overlay.bilinear"})
        EXPECT_NE(warning.find(field), std::string::npos) << field << " not named in: " << warning;
    EXPECT_EQ(warning.find("overlay.colormap"), std::string::npos) << warning;
    EXPECT_EQ(warning.find("image"), std::string::npos) << warning;
}

TEST(SettingsTest, UnknownStyleNamesKeepTheirDefaultsWithAWarning) {
    ScratchDir dir("settings");
    write_text(dir.file("s.json"), R"({"overlay": {"colormap": "jet", "normalization": "sqrt"}, "temperature": 3})");
    std::string warning;
    const Settings got = session::load_settings(dir.file("s.json"), warning);
    EXPECT_EQ(got.style.colormap, Settings{}.style.colormap);
    EXPECT_EQ(got.style.normalization, Settings{}.style.normalization);
    EXPECT_EQ(got.temperature, 3.f);
    EXPECT_NE(warning.find("overlay.colormap"), std::string::npos) << warning;
    EXPECT_NE(warning.find("overlay.normalization"), std::string::npos) << warning;

    write_text(dir.file("s.json"), R"({"overlay": "magma"})");
    expect_defaults(session::load_settings(dir.file("s.json"), warning));
    EXPECT_NE(warning.find("overlay"), std::string::npos) << warning;
}

TEST(SettingsTest, ValuesOutsideTheirRangeAreClamped) {
    ScratchDir dir("settings");
    write_text(dir.file("s.json"), R"({"temperature": 0, "overlay": {"opacity": 7}})");
    std::string warning;
    Settings got = session::load_settings(dir.file("s.json"), warning);
    EXPECT_EQ(got.temperature, session::kMinTemperature);
    EXPECT_EQ(got.style.opacity, 1.f);
    write_text(dir.file("s.json"), R"({"temperature": 1e30, "overlay": {"opacity": -1}})");
    got = session::load_settings(dir.file("s.json"), warning);
    EXPECT_EQ(got.temperature, session::kMaxTemperature);
    EXPECT_EQ(got.style.opacity, 0.f);
}

TEST(SettingsTest, SavingReplacesTheWholeFileAndLeavesNoTemporary) {
    ScratchDir dir("settings");
    const std::string path = dir.file("settings.json");
    write_text(path, std::string(100000, 'x'));  // longer than any settings file
    session::save_settings(path, unusual_settings());
    std::string warning;
    EXPECT_EQ(session::load_settings(path, warning).window_width, 1920);
    EXPECT_EQ(warning, "");
    int files = 0;
    for (const auto& e : fs::directory_iterator(dir.str())) {
        ++files;
        EXPECT_EQ(e.path().filename(), "settings.json");
    }
    EXPECT_EQ(files, 1);
}

TEST(SettingsTest, AFolderThatCannotBeMadeThrows) {
    ScratchDir dir("settings");
    write_text(dir.file("plain_file"), "x");  // a file where a folder should be: refused even to root
    EXPECT_THROW(session::save_settings(dir.file("plain_file/vitscope/settings.json"), Settings{}), vit::Error);
}

TEST(SettingsTest, AnUnwritableFolderThrowsAndKeepsTheOldFile) {
    if (geteuid() == 0) GTEST_SKIP() << "root writes into any folder";
    ScratchDir dir("settings");
    const std::string folder = dir.file("ro"), path = folder + "/settings.json";
    fs::create_directories(folder);
    session::save_settings(path, unusual_settings());
    const std::string before = read_text(path);
    fs::permissions(folder, fs::perms::owner_read | fs::perms::owner_exec);
    EXPECT_THROW(session::save_settings(path, Settings{}), vit::Error);
    fs::permissions(folder, fs::perms::owner_all);
    EXPECT_EQ(read_text(path), before);
    EXPECT_FALSE(fs::exists(path + ".tmp"));
}

// Issue 33: paths that are not UTF-8 are kept byte for byte (the JSON writer
// refused them, and the settings were not saved at all).
TEST(SettingsTest, PathsThatAreNotUtf8RoundTripByteForByte) {
    ScratchDir dir("settings");
    Settings s = unusual_settings();
    s.image_path = "/photos/caf\xe9 \xff.jpg";
    s.model_dir = "/models/\x80";
    s.browse_dir = "/photos/\xc3";       // a cut two-byte character
    s.export_dir = "/out/\xed\xa0\x80";  // an encoded surrogate
    ASSERT_NO_THROW(session::save_settings(dir.file("s.json"), s));
    std::string warning;
    expect_same(session::load_settings(dir.file("s.json"), warning), s);
    EXPECT_EQ(warning, "");
}

// Issue 33: settings.json as a symlink into a dotfiles folder stays a link;
// the file it names is replaced (atomically, by a rename in its own folder).
TEST(SettingsTest, ASymlinkedFileStaysALinkAndItsTargetIsUpdated) {
    ScratchDir dir("settings");
    fs::create_directories(dir.file("dotfiles"));
    fs::create_directories(dir.file("config/vitscope"));
    const std::string target = dir.file("dotfiles/vitscope.json"), link = dir.file("config/vitscope/settings.json");
    session::save_settings(target, Settings{});
    fs::create_symlink("../../dotfiles/vitscope.json", link);  // relative, as dotfile managers make them
    session::save_settings(link, unusual_settings());
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link)));
    EXPECT_EQ(fs::read_symlink(link), "../../dotfiles/vitscope.json");
    std::string warning;
    expect_same(session::load_settings(target, warning), unusual_settings());
    // A link through a link, to a file not made yet.
    const std::string second = dir.file("config/second.json");
    fs::create_symlink(link, second);
    fs::remove(target);
    session::save_settings(second, unusual_settings());
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(second)) && fs::is_symlink(fs::symlink_status(link)));
    expect_same(session::load_settings(target, warning), unusual_settings());
    // A loop is refused, not followed forever.
    const std::string loop = dir.file("config/loop.json");
    fs::create_symlink(loop, loop);
    EXPECT_THROW(session::save_settings(loop, Settings{}), vit::Error);
}

}  // namespace

namespace {

// A relative XDG_CONFIG_HOME is ignored, as the XDG spec says: settings never land under the working folder.
TEST(SettingsPath, ARelativeXdgConfigHomeIsIgnored) {
    const char* old_xdg = std::getenv("XDG_CONFIG_HOME");
    const char* old_home = std::getenv("HOME");
    const std::string keep_xdg = old_xdg ? old_xdg : "", keep_home = old_home ? old_home : "";
    setenv("HOME", "/home/someone", 1);
    setenv("XDG_CONFIG_HOME", "relative/config", 1);
    EXPECT_EQ(session::settings_path(), "/home/someone/.config/vitscope/settings.json");
    setenv("XDG_CONFIG_HOME", "/etc/xdg-test", 1);
    EXPECT_EQ(session::settings_path(), "/etc/xdg-test/vitscope/settings.json");
    if (old_xdg) setenv("XDG_CONFIG_HOME", keep_xdg.c_str(), 1);
    else unsetenv("XDG_CONFIG_HOME");
    if (old_home) setenv("HOME", keep_home.c_str(), 1);
    else unsetenv("HOME");
}

}  // namespace
