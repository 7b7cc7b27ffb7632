// The output rule every writer follows (vit/base/output_file.h), alone: an
// existing file is replaced only with force, a protected file never; the
// temporary is the run's own, beside the output, and gone afterwards (also
// after SIGINT/SIGTERM); concurrent writers on one name: without force
// exactly one wins, with force the file holds one writer's bytes whole;
// refusals name the cause before anything is written.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <sys/stat.h>

#include <gtest/gtest.h>

#include "support/scratch_dir.h"
#include "vit/base/atomic_file.h"
#include "vit/base/output_file.h"

namespace {

namespace fs = std::filesystem;
using vit::OutputRules;
using vit::testing::ScratchDir;

void write_text(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

std::vector<std::string> names_in(const std::string& dir) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

// The message of the vit::Error f throws; "" when it does not throw.
template <class F>
std::string refusal(F f) {
    try {
        f();
    } catch (const vit::Error& e) {
        return e.what();
    }
    return "";
}

OutputRules forced() {
    OutputRules r;
    r.force = true;
    return r;
}

TEST(OutputFile, WritesANewFileAndLeavesNothingElse) {
    ScratchDir dir("out");
    vit::write_output(dir.file("a.csv"), "x,y\n1,2\n", {});
    EXPECT_EQ(read_text(dir.file("a.csv")), "x,y\n1,2\n");
    EXPECT_EQ(names_in(dir.str()), std::vector<std::string>{"a.csv"});
    EXPECT_EQ(vit::live_temporaries(), 0);
}

TEST(OutputFile, AnExistingFileIsReplacedOnlyWithForce) {
    ScratchDir dir("out");
    write_text(dir.file("a.csv"), "mine");
    const std::string why = refusal([&] { vit::write_output(dir.file("a.csv"), "new", {}); });
    EXPECT_NE(why.find("exists"), std::string::npos) << why;
    EXPECT_NE(why.find("--force"), std::string::npos) << why;
    EXPECT_THROW(vit::check_output(dir.file("a.csv"), {}), vit::OutputExists);
    EXPECT_EQ(read_text(dir.file("a.csv")), "mine");
    vit::write_output(dir.file("a.csv"), "new", forced());
    EXPECT_EQ(read_text(dir.file("a.csv")), "new");
    EXPECT_EQ(names_in(dir.str()), std::vector<std::string>{"a.csv"});
}

TEST(OutputFile, AProtectedFileIsNeverWrittenOverEvenWithForce) {
    ScratchDir dir("out");
    fs::create_directories(dir.file("model"));
    write_text(dir.file("photo.jpg"), "JPEG bytes");
    write_text(dir.file("model/config.json"), "{}");
    fs::create_symlink(dir.file("photo.jpg"), dir.file("link.png"));
    fs::create_directories(dir.file("weights"));
    write_text(dir.file("weights/model.safetensors"), "weights");
    fs::create_symlink(dir.file("weights/model.safetensors"), dir.file("model/model.safetensors"));
    OutputRules rules = forced();
    rules.protected_files = {{dir.file("photo.jpg"), "the photo being read"}};
    rules.protected_folders = {dir.file("model")};
    for (const std::string& target :
         {dir.file("photo.jpg"), dir.file("./photo.jpg"), dir.file("link.png"), dir.file("model/config.json"),
          dir.file("model/../model/config.json"), dir.file("model/model.safetensors")}) {
        const std::string why = refusal([&] { vit::write_output(target, "CSV", rules); });
        EXPECT_NE(why.find("never writes over"), std::string::npos) << target << ": " << why;
    }
    EXPECT_EQ(read_text(dir.file("photo.jpg")), "JPEG bytes");
    EXPECT_EQ(read_text(dir.file("model/config.json")), "{}");
    EXPECT_EQ(read_text(dir.file("weights/model.safetensors")), "weights");
    // Nor is a new file written into the model's folder (the model is an input, its folder too)...
    EXPECT_NE(refusal([&] { vit::write_output(dir.file("model/notes.csv"), "ok", rules); }).find("open model's folder"),
              std::string::npos);
    EXPECT_FALSE(fs::exists(dir.file("model/notes.csv")));
    // ...but a new file beside the photo is fine.
    vit::write_output(dir.file("notes.csv"), "ok", rules);
    EXPECT_EQ(read_text(dir.file("notes.csv")), "ok");
}

TEST(OutputFile, RefusalsNameTheirCauseBeforeAnyWrite) {
    ScratchDir dir("out");
    write_text(dir.file("d.jpg"), "a photo");
    fs::create_directories(dir.file("folder"));
    auto why = [&](const std::string& path, vit::OutputKind kind = vit::OutputKind::File) {
        return refusal([&] { vit::check_output(path, forced(), kind); });
    };
    EXPECT_NE(why(dir.file("d.jpg/x.png")).find("d.jpg is a file, not a folder"), std::string::npos)
        << why(dir.file("d.jpg/x.png"));
    EXPECT_NE(why(dir.file("missing/x.png")).find("does not exist"), std::string::npos);
    EXPECT_NE(why(dir.file("folder")).find("is a directory"), std::string::npos);
    EXPECT_NE(why(dir.file("folder"), vit::OutputKind::Folder).find("exists already"), std::string::npos);
    // A name the file system accepts (255 bytes) but not with the temporary's suffix.
    const std::string long_name = dir.file(std::string(251, 'n') + ".png");
    EXPECT_NE(why(long_name).find("the name is 255 bytes"), std::string::npos) << why(long_name);
    EXPECT_EQ(why(dir.file(std::string(200, 'n') + ".png")), "");
    EXPECT_EQ(names_in(dir.str()), (std::vector<std::string>{"d.jpg", "folder"}));
}

TEST(OutputFile, TheTemporaryIsTheRunsOwnBesideTheOutput) {
    ScratchDir dir("out");
    vit::OutputTemp a(dir.file("x.gif"), {}), b(dir.file("x.gif"), {});
    EXPECT_NE(a.temp_path(), b.temp_path());
    for (const vit::OutputTemp* t : {&a, &b}) {
        EXPECT_EQ(fs::path(t->temp_path()).parent_path(), fs::path(dir.str()));
        EXPECT_NE(t->temp_path().find(std::to_string(::getpid())), std::string::npos) << t->temp_path();
    }
    EXPECT_EQ(vit::live_temporaries(), 2);
}

TEST(OutputFile, AnUncommittedTemporaryIsRemoved) {
    ScratchDir dir("out");
    {
        vit::OutputTemp t(dir.file("x.gif"), {});
        t.write("half a GIF");
    }
    EXPECT_TRUE(names_in(dir.str()).empty());
    EXPECT_EQ(vit::live_temporaries(), 0);
}

TEST(OutputFile, WithoutForceTwoWritersOnOneNameExactlyOneWins) {
    ScratchDir dir("out");
    const std::string path = dir.file("same.png");
    vit::OutputTemp a(path, {}), b(path, {});
    a.write("from a");
    b.write("from b");
    a.commit();
    EXPECT_THROW(b.commit(), vit::OutputExists);  // b appeared after its check: it does not replace a's file
    EXPECT_EQ(read_text(path), "from a");
}

TEST(OutputFile, ConcurrentWritersLeaveOneWholeFileAndNoTemporaries) {
    ScratchDir dir("out");
    const std::string path = dir.file("same.gif");
    constexpr int kWriters = 8;
    for (const bool force : {false, true}) {
        fs::remove(path);
        std::atomic<int> wins{0}, exists{0};
        std::vector<std::thread> writers;
        for (int i = 0; i < kWriters; ++i)
            writers.emplace_back([&, i] {
                OutputRules rules;
                rules.force = force;
                try {
                    vit::OutputTemp t(path, rules);
                    t.write(std::string(100000, static_cast<char>('a' + i)));
                    t.commit();
                    ++wins;
                } catch (const vit::OutputExists&) {
                    ++exists;
                }
            });
        for (std::thread& t : writers) t.join();
        EXPECT_EQ(wins + exists, kWriters);
        if (force) EXPECT_EQ(wins, kWriters);  // each replaced the one before: the last rename wins
        else EXPECT_EQ(wins, 1);
        const std::string got = read_text(path);
        ASSERT_EQ(got.size(), 100000u);
        EXPECT_EQ(got.find_first_not_of(got[0]), std::string::npos) << "bytes of two writers mixed";
        EXPECT_EQ(names_in(dir.str()), std::vector<std::string>{"same.gif"});
    }
}

TEST(OutputFile, AFolderAppearsWholeOrNotAtAll) {
    ScratchDir dir("out");
    {
        vit::OutputFolder f(dir.file("slides"), {});
        f.write("step_01.png", "one");
        EXPECT_FALSE(fs::exists(dir.file("slides")));
    }
    EXPECT_TRUE(names_in(dir.str()).empty());
    vit::OutputFolder f(dir.file("slides"), {});
    f.write("step_01.png", "one");
    f.write("index.html", "<html>");
    f.commit();
    EXPECT_EQ(names_in(dir.file("slides")), (std::vector<std::string>{"index.html", "step_01.png"}));
    EXPECT_EQ(names_in(dir.str()), std::vector<std::string>{"slides"});
    EXPECT_NE(refusal([&] { vit::OutputFolder again(dir.file("slides"), forced()); }).find("exists already"),
              std::string::npos);
}

// --force replaces a folder only where the check says it is an earlier output
// of the same kind, checked again at the swap; anything else is left whole.
TEST(OutputFile, AFolderReplacesOnlyAnEarlierOutputOfItsKind) {
    ScratchDir dir("out");
    const vit::FolderCheck only_runs = [](const std::string& folder) -> std::string {
        return fs::exists(folder + "/run.txt") && names_in(folder).size() == 1 ? "" : "is not a run";
    };
    fs::create_directories(dir.file("run"));
    write_text(dir.file("run/run.txt"), "old");
    EXPECT_NE(refusal([&] { vit::OutputFolder f(dir.file("run"), {}, only_runs); }).find("--force"), std::string::npos);
    {
        vit::OutputFolder f(dir.file("run"), forced(), only_runs);
        f.write("run.txt", "new");
        f.commit();
    }
    EXPECT_EQ(read_text(dir.file("run/run.txt")), "new");
    EXPECT_EQ(names_in(dir.str()), std::vector<std::string>{"run"});  // the old one removed, no temporary
    // A stranger inside: refused up front, and, when it arrives mid-write, at the swap (the new one kept beside).
    write_text(dir.file("run/notes.txt"), "mine");
    EXPECT_NE(refusal([&] { vit::OutputFolder f(dir.file("run"), forced(), only_runs); }).find("is not a run"),
              std::string::npos);
    fs::remove(dir.file("run/notes.txt"));
    vit::OutputFolder late(dir.file("run"), forced(), only_runs);
    late.write("run.txt", "late");
    write_text(dir.file("run/notes.txt"), "mine");
    EXPECT_EQ(late.commit_beside(), dir.file("run") + "-2");
    EXPECT_EQ(read_text(dir.file("run/notes.txt")), "mine");
    EXPECT_EQ(read_text(dir.file("run/run.txt")), "new");
    EXPECT_EQ(read_text(dir.file("run-2/run.txt")), "late");
}

TEST(OutputFile, AFolderThatAppearsMeanwhileWinsAndTheOutputGoesBeside) {
    ScratchDir dir("out");
    vit::OutputFolder f(dir.file("run"), {});
    f.write("a.txt", "a");
    fs::create_directories(dir.file("run"));
    write_text(dir.file("run/notes.txt"), "mine");
    fs::create_directories(dir.file("run-2"));
    EXPECT_EQ(f.commit_beside(), dir.file("run") + "-3");
    EXPECT_EQ(names_in(dir.file("run")), std::vector<std::string>{"notes.txt"});
    EXPECT_TRUE(names_in(dir.file("run-2")).empty());
    EXPECT_EQ(read_text(dir.file("run-3/a.txt")), "a");
}

// The loser is told what happened; never "pass --force" (issue 33): a folder
// is not replaced even with force, and the window must not offer "Replace".
TEST(OutputFile, TwoFoldersOnOneNameExactlyOneWins) {
    for (const OutputRules& rules : {OutputRules{}, forced()}) {
        ScratchDir dir("out");
        {
            vit::OutputFolder a(dir.file("slides"), rules), b(dir.file("slides"), rules);
            a.write("step_01.png", "a");
            b.write("step_01.png", "b");
            a.commit();
            try {
                b.commit();
                ADD_FAILURE() << "the second folder replaced the first";
            } catch (const vit::OutputExists& e) {
                ADD_FAILURE() << "a folder's loser is offered a replacement: " << e.what();
            } catch (const vit::Error& e) {
                const std::string why = e.what();
                EXPECT_EQ(why.find("--force"), std::string::npos) << why;
                EXPECT_NE(why.find(dir.file("slides") + " exists: it appeared while the output was being written"),
                          std::string::npos)
                    << why;
                EXPECT_NE(why.find("never replaces a folder"), std::string::npos) << why;
            }
        }
        EXPECT_EQ(read_text(dir.file("slides/step_01.png")), "a");
        EXPECT_EQ(names_in(dir.str()), std::vector<std::string>{"slides"});
    }
}

// Two outputs of one run (`sweep -o k.gif --frames k.gif`) on one path, or
// one inside the other: refused, naming both, before anything is written.
TEST(OutputFile, TwoOutputsOfOneRunMustLieApart) {
    ScratchDir dir("out");
    fs::create_directories(dir.file("d"));
    fs::create_directory_symlink(dir.file("d"), dir.file("link"));
    const std::string gif = dir.file("d/k.gif");
    auto apart = [](const std::string& a, const std::string& b) {
        return refusal([&] { vit::check_apart("-o", a, "--frames", b); });
    };
    EXPECT_EQ(apart(gif, gif),
              "-o " + gif + " and --frames " + gif + " are the same path; give each output a place of its own");
    EXPECT_NE(apart(gif, dir.file("d/./k.gif/")).find("are the same path"), std::string::npos);
    EXPECT_NE(apart(gif, dir.file("link/k.gif")).find("are the same path"), std::string::npos);  // through a link
    EXPECT_NE(apart(gif, dir.file("d/x/../k.gif")).find("are the same path"), std::string::npos);
    EXPECT_EQ(apart(gif, dir.file("d/k.gif/frames")), "--frames " + dir.file("d/k.gif/frames") + " lies inside -o " +
                                                          gif + "; give each output a place of its own");
    EXPECT_EQ(apart(dir.file("f/k.gif"), dir.file("f")), "-o " + dir.file("f/k.gif") + " lies inside --frames " +
                                                             dir.file("f") + "; give each output a place of its own");
    // Apart: no refusal, also for names that only begin alike.
    EXPECT_EQ(apart(gif, dir.file("d/k.gif_frames")), "");
    EXPECT_EQ(apart(gif, dir.file("d/k")), "");
    EXPECT_EQ(apart(gif, ""), "");
    EXPECT_EQ(names_in(dir.str()), (std::vector<std::string>{"d", "link"}));
    EXPECT_TRUE(names_in(dir.file("d")).empty());
}

// A child process writes, then gets the signal mid-way: it dies of the signal
// and its temporaries (a file and a folder with files) are gone.
TEST(OutputFile, SigintAndSigtermRemoveTheRunsTemporaries) {
    for (const int sig : {SIGINT, SIGTERM}) {
        ScratchDir dir("out");
        const pid_t child = ::fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            vit::remove_temporaries_on_signals();
            vit::OutputTemp file(dir.file("sweep.gif"), {});
            file.write("half");
            vit::OutputFolder folder(dir.file("slides"), {});
            folder.write("step_01.png", "one");
            folder.write("step_02.png", "two");
            ::raise(sig);
            ::_exit(0);  // not reached
        }
        int status = 0;
        ASSERT_EQ(::waitpid(child, &status, 0), child);
        EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << status;
        EXPECT_TRUE(names_in(dir.str()).empty()) << names_in(dir.str()).size() << " left";
    }
}

TEST(OutputFile, ErrorsCarryErrnosTextAndThePath) {
    ScratchDir dir("out");
    fs::create_directories(dir.file("settings.json"));
    const std::string why = refusal([&] { vit::write_file_atomic(dir.file("settings.json"), "{}"); });
    EXPECT_NE(why.find(dir.file("settings.json")), std::string::npos) << why;
    EXPECT_NE(why.find("is a directory"), std::string::npos) << why;
    EXPECT_EQ(why.find("Success"), std::string::npos) << why;
}

TEST(OutputFile, TheProgramsOwnFilesAreReplacedWhole) {
    ScratchDir dir("out");
    write_text(dir.file("state.json"), std::string(100000, 'x'));
    vit::write_file_atomic(dir.file("state.json"), "{}\n");
    EXPECT_EQ(read_text(dir.file("state.json")), "{}\n");
    EXPECT_EQ(names_in(dir.str()), std::vector<std::string>{"state.json"});
}

// Issue 37, item 2: a symlinked output is replaced at its target, the link kept;
// a character device behind a link is written into, never replaced, even with force.
TEST(OutputFile, ASymlinkedOutputReplacesItsTargetAndKeepsTheLink) {
    ScratchDir dir("out");
    fs::create_directories(dir.file("real"));
    write_text(dir.file("real/t.csv"), "old");
    fs::create_symlink("real/t.csv", dir.file("link.csv"));
    EXPECT_NE(refusal([&] { vit::write_output(dir.file("link.csv"), "new", OutputRules{}); }).find("--force"),
              std::string::npos);
    EXPECT_EQ(read_text(dir.file("real/t.csv")), "old");
    vit::write_output(dir.file("link.csv"), "new", forced());
    EXPECT_TRUE(fs::is_symlink(dir.file("link.csv")));
    EXPECT_EQ(fs::read_symlink(dir.file("link.csv")), fs::path("real/t.csv"));
    EXPECT_EQ(read_text(dir.file("real/t.csv")), "new");
    EXPECT_EQ(names_in(dir.file("real")), std::vector<std::string>{"t.csv"});  // no temporary left
    // A dangling link: the file is made where it points.
    fs::create_symlink("real/made.csv", dir.file("dangling.csv"));
    vit::write_output(dir.file("dangling.csv"), "made", OutputRules{});
    EXPECT_TRUE(fs::is_symlink(dir.file("dangling.csv")));
    EXPECT_EQ(read_text(dir.file("real/made.csv")), "made");
}

TEST(OutputFile, TheProgramsOwnFileNeverWaitsOnAFifoWithoutAReader) {
    ScratchDir dir("out");
    ASSERT_EQ(::mkfifo(dir.file("settings.json").c_str(), 0600), 0);
    EXPECT_NE(refusal([&] { vit::write_file_atomic(dir.file("settings.json"), "{}\n"); }).find("nothing reads"),
              std::string::npos);
    struct stat st {};
    ASSERT_EQ(::lstat(dir.file("settings.json").c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode));  // still the FIFO: never replaced
    EXPECT_EQ(names_in(dir.str()), std::vector<std::string>{"settings.json"});
}

TEST(OutputFile, ADeviceBehindALinkIsWrittenIntoNeverReplaced) {
    ScratchDir dir("out");
    fs::create_symlink("/dev/null", dir.file("null.csv"));
    struct stat before {
    }, after{};
    ASSERT_EQ(::stat("/dev/null", &before), 0);
    vit::write_output(dir.file("null.csv"), "bytes", OutputRules{});  // no force needed: nothing is replaced
    vit::write_output(dir.file("null.csv"), "bytes", forced());
    vit::write_output("/dev/null", "bytes", forced());
    ASSERT_EQ(::stat("/dev/null", &after), 0);
    EXPECT_TRUE(S_ISCHR(after.st_mode));
    EXPECT_EQ(before.st_ino, after.st_ino);
    EXPECT_EQ(before.st_rdev, after.st_rdev);
    EXPECT_TRUE(fs::is_symlink(dir.file("null.csv")));
    EXPECT_EQ(names_in(dir.str()), std::vector<std::string>{"null.csv"});
    EXPECT_NE(refusal([&] { vit::check_output("-", forced(), vit::OutputKind::Folder); }).find("standard output"),
              std::string::npos);
}

}  // namespace
