// Lesson files (session/files/lesson.h): every field written and read back, the
// photo embedded and unpacked byte for byte, each kind of bad file refused
// with one line naming the file and the cause, and apply_lesson restoring the
// selection (clamped to the trace as apply does).
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "session/dispatch/requests.h"
#include "session/tour/tour_show.h"
#include "session/files/lesson.h"
#include "support/default_model.h"
#include "support/scratch_dir.h"
#include "support/synthetic_session.h"
#include "vit/base/error.h"
#include "session/dispatch/apply_lesson.h"

namespace {

using session::Lesson;
using vit::testing::ScratchDir;

void write(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

// A folder with a "photo", a second one and a "model" folder: read_lesson only
// checks that they are there; the window's worker decodes and loads them.
struct LessonFolder {
    ScratchDir dir{"vitscope-lesson"};
    std::string photo = dir.file("dog.jpg"), second = dir.file("cat.png"), model = dir.file("model");
    LessonFolder() {
        write(photo, std::string("\xff\xd8\xff\x00 not really a jpeg \x01\x02", 24));
        write(second, "png bytes");
        std::filesystem::create_directory(model);
        write(model + "/config.json", "{}");
        write(model + "/model.safetensors", "x");
    }
    Lesson lesson() const {
        Lesson l;
        l.photo = photo, l.model = model, l.input_size = 448;
        l.selection = {8, 1, {0, 2}, session::MapSource::MeanOfVisible, 82, 17};
        l.tab = session::AppState::Tab::Questions, l.question = "global", l.classroom = true, l.math_step = 4;
        l.compare_photo = second;
        l.style.colormap = gfx::Colormap::Magma, l.style.normalization = gfx::Normalization::Log;
        l.style.opacity = 0.25f, l.style.fade = false, l.style.bilinear = false, l.style.show_grid = false;
        l.temperature = 2.5f;
        return l;
    }
};

std::string error_of(const std::string& path) {
    try {
        session::read_lesson(path);
    } catch (const vit::Error& e) {
        return e.what();
    }
    return "";
}

TEST(Lesson, EveryFieldRoundTrips) {
    LessonFolder d;
    const std::string path = d.dir.file("class.vitscope");
    write(path, session::lesson_json(d.lesson(), false));
    const Lesson a = d.lesson(), b = session::read_lesson(path);
    EXPECT_EQ(b.photo, a.photo);
    EXPECT_TRUE(b.photo_embedded.empty());
    EXPECT_EQ(b.model, a.model);
    EXPECT_EQ(b.input_size, 448);
    EXPECT_EQ(b.selection.layer, 8);
    EXPECT_EQ(b.selection.head, 1);
    EXPECT_EQ(b.selection.visible_heads, (std::vector<int>{0, 2}));
    EXPECT_EQ(b.selection.map, session::MapSource::MeanOfVisible);
    EXPECT_EQ(b.selection.query, 82);
    EXPECT_EQ(b.selection.pinned_key, 17);
    EXPECT_EQ(b.tab, session::AppState::Tab::Questions);
    EXPECT_EQ(b.question, "global");
    EXPECT_TRUE(b.classroom);
    EXPECT_EQ(b.math_step, 4);
    EXPECT_EQ(b.compare_photo, a.compare_photo);
    EXPECT_EQ(b.style.colormap, gfx::Colormap::Magma);
    EXPECT_EQ(b.style.normalization, gfx::Normalization::Log);
    EXPECT_FLOAT_EQ(b.style.opacity, 0.25f);
    EXPECT_FALSE(b.style.fade);
    EXPECT_FALSE(b.style.bilinear);
    EXPECT_FALSE(b.style.show_grid);
    EXPECT_FLOAT_EQ(b.temperature, 2.5f);
    EXPECT_EQ(nlohmann::json::parse(session::lesson_json(b, false))["vitscope_lesson"], session::kLessonVersion);
}

TEST(Lesson, RelativePathsAreReadFromTheLessonsFolder) {
    LessonFolder d;
    nlohmann::json j = nlohmann::json::parse(session::lesson_json(d.lesson(), false));
    j["photo"] = "dog.jpg", j["model"] = "model", j["compare_photo"] = "";
    write(d.dir.file("rel.vitscope"), j.dump());
    const Lesson l = session::read_lesson(d.dir.file("rel.vitscope"));
    EXPECT_EQ(l.photo, d.photo);
    EXPECT_EQ(l.model, d.model);
    EXPECT_EQ(l.compare_photo, "");
}

TEST(Lesson, AnEmbeddedPhotoOpensWhereItsPathIsGone) {
    LessonFolder d;
    std::filesystem::copy_file(vit::testing::asset("dog.jpg"), d.photo,
                               std::filesystem::copy_options::overwrite_existing);
    const std::string path = d.dir.file("embedded.vitscope");
    std::ifstream in(d.photo, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    write(path, session::lesson_json(d.lesson(), true));
    std::filesystem::remove(d.photo);
    ScratchDir cache("vitscope-cache");
    setenv("XDG_CACHE_HOME", cache.str().c_str(), 1);
    const Lesson l = session::read_lesson(path);
    EXPECT_EQ(l.photo_embedded, bytes);
    const std::string unpacked = session::unpack_embedded_photo(l);
    EXPECT_NE(unpacked, d.photo);
    EXPECT_EQ(unpacked.rfind(cache.str(), 0), 0u) << unpacked;
    std::ifstream back(unpacked, std::ios::binary);
    EXPECT_EQ(std::string((std::istreambuf_iterator<char>(back)), std::istreambuf_iterator<char>()), bytes);
    unsetenv("XDG_CACHE_HOME");
}

// Issue 33: embedded bytes that are not a photo (or one over the pixel limit)
// are refused by name, and nothing is written to the cache folder.
TEST(Lesson, EmbeddedBytesThatAreNoPhotoAreRefusedBeforeUnpacking) {
    LessonFolder d;
    ScratchDir cache("vitscope-cache");
    setenv("XDG_CACHE_HOME", cache.str().c_str(), 1);
    Lesson l = d.lesson();
    l.photo = d.dir.file("gone/dog.jpg");
    // A PNG header claiming 20000 x 20000 pixels: refused from the header.
    std::string huge("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x4e\x20\0\0\x4e\x20\x08\x02\0\0\0\0\0\0\0", 33);
    for (const std::string& bytes : {std::string("not an image at all"), huge}) {
        l.photo_embedded = bytes;
        try {
            session::unpack_embedded_photo(l);
            ADD_FAILURE() << "unpacked bytes that are no photo";
        } catch (const vit::Error& e) {
            EXPECT_NE(std::string(e.what()).find("the photo embedded in the lesson (dog.jpg)"), std::string::npos)
                << e.what();
        }
    }
    EXPECT_FALSE(std::filesystem::exists(cache.file("vitscope/lesson-photos")));
    unsetenv("XDG_CACHE_HOME");
}

TEST(Lesson, BadFilesNameTheFileAndTheCause) {
    LessonFolder d;
    auto with = [&](const std::string& name, auto edit) {
        nlohmann::json j = nlohmann::json::parse(session::lesson_json(d.lesson(), false));
        edit(j);
        const std::string path = d.dir.file(name);
        write(path, j.dump());
        return path;
    };
    const std::string not_json = d.dir.file("broken.vitscope");
    write(not_json, "{\"vitscope_lesson\": 1, \"photo\": ");
    const std::string not_lesson = d.dir.file("other.vitscope");
    write(not_lesson, "{\"tour\": 1}");
    const struct {
        std::string path, says;
    } cases[] = {
        {not_json, "not valid JSON"},
        {not_lesson, "not a vitscope lesson"},
        {with("newer.vitscope", [](auto& j) { j["vitscope_lesson"] = 2; }), "lesson version 2 is newer"},
        {with("nolayer.vitscope", [](auto& j) { j.erase("layer"); }), "no \"layer\""},
        {with("typed.vitscope", [](auto& j) { j["head"] = "one"; }), "\"head\" is not a whole number"},
        {with("step.vitscope", [](auto& j) { j["math_step"] = 9; }), "\"math_step\" is 9, outside 1..7"},
        {with("tab.vitscope", [](auto& j) { j["tab"] = "photos"; }), "\"tab\" is \"photos\""},
        {with("cmap.vitscope", [](auto& j) { j["style"]["colormap"] = "jet"; }), "\"colormap\" is not"},
        {with("photo.vitscope", [](auto& j) { j["photo"] = "/nowhere/dog.jpg"; }),
         "the photo /nowhere/dog.jpg is missing"},
        {with("model.vitscope", [](auto& j) { j["model"] = "/nowhere/vit"; }),
         "the model: /nowhere/vit: model folder not found"},
        {with("second.vitscope", [](auto& j) { j["compare_photo"] = "/nowhere/cat.png"; }),
         "comparison photo /nowhere/cat.png"},
        {with("b64.vitscope", [](auto& j) { j["photo_embedded"] = "not base64!"; }),
         "\"photo_embedded\" is not base64"},
    };
    for (const auto& c : cases) {
        const std::string e = error_of(c.path);
        EXPECT_EQ(e.rfind(c.path, 0), 0u) << "names the file: " << e;
        EXPECT_NE(e.find(c.says), std::string::npos) << c.path << ": " << e;
        EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    }
    EXPECT_NE(error_of(d.dir.file("absent.vitscope")).find("absent.vitscope"), std::string::npos);
}

// Issue 33: the same check as --model, so a folder with pytorch_model.bin
// and no model.safetensors opens as it does there.
TEST(Lesson, AModelWithPytorchModelBinOpens) {
    LessonFolder d;
    std::filesystem::remove(d.model + "/model.safetensors");
    write(d.model + "/pytorch_model.bin", "x");
    const std::string path = d.dir.file("bin.vitscope");
    write(path, session::lesson_json(d.lesson(), false));
    EXPECT_EQ(error_of(path), "");
    std::filesystem::remove(d.model + "/pytorch_model.bin");
    EXPECT_NE(error_of(path).find("pytorch_model.bin"), std::string::npos) << error_of(path);
}

// Issue 33: 2^64 - 1 is refused as written, never read as -1 (which
// pinned_key would have taken for "no key").
TEST(Lesson, WholeNumbersThatWouldWrapAreRefusedAsWritten) {
    LessonFolder d;
    const std::string huge = "18446744073709551615";
    for (const std::string key : {"layer", "pinned_key", "query", "input_size"}) {
        nlohmann::json j = nlohmann::json::parse(session::lesson_json(d.lesson(), false));
        j[key] = nlohmann::json::parse(huge);
        const std::string path = d.dir.file(key + ".vitscope");
        write(path, j.dump());
        const std::string e = error_of(path);
        EXPECT_NE(e.find("\"" + key + "\" is " + huge + ", outside"), std::string::npos) << e;
    }
    nlohmann::json j = nlohmann::json::parse(session::lesson_json(d.lesson(), false));
    j["vitscope_lesson"] = nlohmann::json::parse(huge);
    write(d.dir.file("version.vitscope"), j.dump());
    EXPECT_NE(error_of(d.dir.file("version.vitscope")).find("lesson version " + huge + " is newer"), std::string::npos)
        << error_of(d.dir.file("version.vitscope"));
}

// Issue 33: a photo that is not a regular file is named as what it is.
TEST(Lesson, APhotoThatIsNoFileIsNamedAsWhatItIs) {
    LessonFolder d;
    const std::string folder = d.dir.file("folder.jpg"), fifo = d.dir.file("fifo.jpg"), loop = d.dir.file("loop.jpg"),
                      dangling = d.dir.file("dangling.jpg");
    std::filesystem::create_directory(folder);
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    std::filesystem::create_symlink(loop, loop);
    std::filesystem::create_symlink(d.dir.file("gone.jpg"), dangling);
    const struct {
        std::string photo, says;
    } cases[] = {{folder, "is a folder"},
                 {fifo, "is a FIFO"},
                 {"/dev/zero", "is a device"},
                 {loop, "is a symlink loop"},
                 {dangling, "is a link to nothing"},
                 {d.dir.file("absent.jpg"), "is missing"}};
    for (const char* key : {"photo", "compare_photo"}) {
        for (const auto& c : cases) {
            nlohmann::json j = nlohmann::json::parse(session::lesson_json(d.lesson(), false));
            j[key] = c.photo;
            const std::string path = d.dir.file(std::string(key) + ".vitscope");
            write(path, j.dump());
            const std::string e = error_of(path);
            EXPECT_NE(e.find(c.photo + " " + c.says), std::string::npos) << key << ": " << e;
        }
    }
}

// Issue 33: a path that is not UTF-8 (a Linux file name is bytes) is saved
// and read back byte for byte; the JSON writer used to refuse the whole file.
TEST(Lesson, PathsThatAreNotUtf8RoundTripByteForByte) {
    LessonFolder d;
    const std::string odd = d.dir.file(std::string("caf\xe9 \xff\xfe.jpg"));
    write(odd, "photo bytes");
    Lesson l = d.lesson();
    l.photo = l.compare_photo = odd;
    std::string text;
    ASSERT_NO_THROW(text = session::lesson_json(l, true));
    EXPECT_TRUE(nlohmann::json::parse(text)["photo"].contains("path_bytes")) << text;
    const std::string path = d.dir.file("odd.vitscope");
    write(path, text);
    const Lesson back = session::read_lesson(path);
    EXPECT_EQ(back.photo, odd);
    EXPECT_EQ(back.compare_photo, odd);
    EXPECT_EQ(back.photo_embedded, "photo bytes");
    EXPECT_EQ(back.model, d.model);  // UTF-8 paths stay plain strings
    EXPECT_TRUE(nlohmann::json::parse(text)["model"].is_string());
}

// Issue 33: a photo too large to embed says it is the embedding's limit.
TEST(Lesson, APhotoOverTheEmbeddingLimitSaysSo) {
    LessonFolder d;
    Lesson l = d.lesson();
    l.photo = d.dir.file("big.png");
    write(l.photo, "x");
    std::filesystem::resize_file(l.photo, 45u << 20);  // sparse: no 45 MiB written
    try {
        session::lesson_json(l, true);
        FAIL() << "embedded a 45 MiB photo";
    } catch (const vit::Error& e) {
        EXPECT_NE(std::string(e.what()).find("over the 32 MiB limit for a photo embedded in a lesson"),
                  std::string::npos)
            << e.what();
    }
}

TEST(Lesson, ApplyRestoresTheSelectionClampedToTheTrace) {
    session::AppState s = vit::testing::state_with(vit::testing::shaped_trace(3, 3));  // 10 tokens, 2 layers, 3 heads
    LessonFolder d;
    Lesson l = d.lesson();
    l.selection = {1, 2, {0, 2}, session::MapSource::MeanOfVisible, 5, 7};
    session::apply_lesson(s, l);
    EXPECT_EQ(s.sel.layer, 1);
    EXPECT_EQ(s.sel.head, 2);
    EXPECT_EQ(s.sel.source, session::MapSource::MeanOfVisible);
    EXPECT_EQ(s.sel.visible_heads(), (std::vector<int>{0, 2}));
    EXPECT_EQ(s.sel.query, 5);
    EXPECT_EQ(s.sel.pinned_key, 7);
    EXPECT_EQ(s.tab, session::AppState::Tab::Questions);
    EXPECT_EQ(s.question, "global");
    EXPECT_TRUE(s.classroom);
    EXPECT_EQ(s.math_step, 4);
    EXPECT_EQ(s.style.colormap, gfx::Colormap::Magma);
    EXPECT_FLOAT_EQ(s.temperature, 2.5f);
    l.selection.layer = 40, l.selection.query = 500;  // a lesson from a deeper model or a finer grid: clamped
    session::apply_lesson(s, l);
    EXPECT_EQ(s.sel.layer, 1);
    EXPECT_EQ(s.sel.query, 9);
}

}  // namespace
