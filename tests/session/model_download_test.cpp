// session::ModelDownloader and the known-models list: downloads from a file://
// mirror land whole or not at all, the weight files are tried in order of
// preference, bad downloads leave no partial folder, the progress callback can
// abort; the list's hub URLs are those scripts/fetch_model.sh asks for; the
// user's models folder is where vit::default_model_dir looks last.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <thread>

#include <gtest/gtest.h>

#include "session/models/known_models.h"
#include "session/models/model_download.h"
#include "support/scratch_dir.h"
#include "support/synthetic_model.h"
#include "vit/base/default_model.h"
#include "vit/base/error.h"
#include "vit/formats/checkpoint.h"

namespace {

namespace fs = std::filesystem;
using session::KnownModel;
using session::ModelDownloader;
using vit::testing::ScratchDir;

const std::string kList = std::string(VITSCOPE_SOURCE_DIR) + "/assets/models.json";

// A known model served by the test's mirror as mirror/tiny/.
KnownModel tiny(std::vector<std::string> weights = {"model.safetensors", "pytorch_model.bin"}) {
    KnownModel m;
    m.name = "test/tiny";
    m.folder = "tiny";
    m.repo = "test/tiny";
    m.weights = std::move(weights);
    m.files = {"config.json"};
    m.optional = {"preprocessor_config.json"};
    return m;
}

// A synthetic model folder in the mirror (timm layout: no preprocessor file).
void serve_synthetic(const std::string& mirror) {
    const vit::Model m = vit::testing::make_synthetic_model({});
    vit::testing::write_checkpoint(m, mirror + "/tiny", "timm", vit::DType::F32);
}

// Runs one download to its end and returns its result.
ModelDownloader::Result download(const KnownModel& m, const std::string& models_dir, const std::string& mirror) {
    ModelDownloader d;
    EXPECT_TRUE(d.start({m, models_dir, mirror}));
    for (int i = 0; i < 3000; ++i) {
        if (auto r = d.poll()) {
            EXPECT_FALSE(d.view().running());
            return *r;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ADD_FAILURE() << "the download did not end in 30 s";
    return {};
}

std::vector<std::string> entries(const std::string& dir) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

std::string read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(KnownModels, TheListReadsAndNamesTheDefault) {
    const auto models = session::read_known_models(kList);
    EXPECT_EQ(models.size(), 12u);
    const KnownModel* m = session::find_known_model(models, vit::kDefaultModelName);
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->repo, std::string("timm/") + vit::kDefaultModelName);
    // Found by its folder name too, as the script takes it.
    EXPECT_EQ(session::find_known_model(models, "dino-vits16"),
              session::find_known_model(models, "facebook/dino-vits16"));
    EXPECT_EQ(session::find_known_model(models, "resnet50"), nullptr);
    for (const KnownModel& k : models) EXPECT_FALSE(k.why.empty()) << k.name;
}

TEST(KnownModels, SizeTextSaysWhenUnknown) {
    KnownModel m;
    EXPECT_EQ(session::size_text(m), "size unknown");
    m.size_mb = 22.9;
    EXPECT_EQ(session::size_text(m), "22.9 MB");
    m.size_mb = 23;  // the hub says "23 MB": no invented decimal
    EXPECT_EQ(session::size_text(m), "23 MB");
}

TEST(KnownModels, RefusesFileNamesThatLeaveTheFolder) {
    ScratchDir dir;
    const std::string path = dir.file("models.json");
    vit::testing::write_bytes(path, R"({"models": [{"name": "x", "folder": "x", "repo": "a/x", "weights": ["../evil"],
        "files": ["config.json"], "optional": [], "size_mb": null, "why": "."}]})");
    try {
        session::read_known_models(path);
        FAIL() << "accepted ../evil";
    } catch (const vit::Error& e) {
        EXPECT_NE(std::string(e.what()).find("../evil"), std::string::npos) << e.what();
    }
    vit::testing::write_bytes(path, R"({"models": [{"name": "x", "folder": "..", "repo": "a/x", "weights": ["w"],
        "files": [], "optional": [], "size_mb": null, "why": "."}]})");
    EXPECT_THROW(session::read_known_models(path), vit::Error);
}

TEST(KnownModels, UrlsOfTheHubAndOfMirrors) {
    const KnownModel m = tiny();
    EXPECT_EQ(session::file_url(m, "config.json", ""), "https://huggingface.co/test/tiny/resolve/main/config.json");
    EXPECT_EQ(session::file_url(m, "config.json", "http://127.0.0.1:8000/models/"),
              "http://127.0.0.1:8000/models/tiny/config.json");
    EXPECT_EQ(session::file_url(m, "config.json", "file:///srv/models"), "file:///srv/models/tiny/config.json");
    // A folder becomes a file:// URL, its odd characters escaped.
    EXPECT_EQ(session::file_url(m, "config.json", "/srv/my models%"), "file:///srv/my%20models%25/tiny/config.json");
}

// Two implementations of the same list: the window's URLs must be the ones the script asks for.
TEST(KnownModels, TheWindowAsksForWhatTheScriptAsksFor) {
    for (const KnownModel& m : session::read_known_models(kList)) {
        // Appended piece by piece: GCC 12 warns falsely (-Warray-bounds, its bug 105651) on a chain of + here.
        std::string command = "env -u VITSCOPE_MODEL_MIRROR bash '";
        command += VITSCOPE_SOURCE_DIR;
        command += "/scripts/fetch_model.sh' --urls '";
        command += m.name;
        command += "'";
        FILE* p = popen(command.c_str(), "r");
        ASSERT_NE(p, nullptr);
        std::string script;
        char buf[512];
        while (std::fgets(buf, sizeof buf, p)) script += buf;
        ASSERT_EQ(pclose(p), 0) << command;
        std::string window;
        for (const auto& w : m.weights) window += "weight " + session::file_url(m, w, "") + "\n";
        for (const auto& f : m.files) window += "file " + session::file_url(m, f, "") + "\n";
        for (const auto& f : m.optional) window += "optional " + session::file_url(m, f, "") + "\n";
        EXPECT_EQ(window, script) << m.name;
    }
}

// What a models folder holds after a download of tiny: the model and its lock file.
const std::vector<std::string> kTinyAndLock{".tiny.lock", "tiny"};

TEST(ModelDownloader, FetchesFromAFolderMirrorChecksAndRenames) {
    ScratchDir mirror, models;
    serve_synthetic(mirror.str());
    const auto r = download(tiny(), models.str(), mirror.str());
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(r.dir, models.str() + "/tiny");
    EXPECT_EQ(entries(models.str()), kTinyAndLock);  // no temporary folder left
    EXPECT_EQ(entries(r.dir), (std::vector<std::string>{"config.json", "model.safetensors"}));
    EXPECT_EQ(read(r.dir + "/model.safetensors"), read(mirror.file("tiny/model.safetensors")));
    EXPECT_TRUE(session::is_downloaded(tiny(), models.str()));
    EXPECT_NO_THROW(vit::load_model(r.dir));
}

TEST(ModelDownloader, FileUrlMirrorAndOptionalFiles) {
    ScratchDir mirror, models;
    serve_synthetic(mirror.str());
    vit::testing::write_bytes(mirror.file("tiny/preprocessor_config.json"),
                              vit::testing::preprocessor_json(vit::testing::make_synthetic_model({})));
    const auto r = download(tiny(), models.str(), "file://" + mirror.str());
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(entries(r.dir),
              (std::vector<std::string>{"config.json", "model.safetensors", "preprocessor_config.json"}));
}

TEST(ModelDownloader, TriesTheWeightFilesInOrder) {
    ScratchDir mirror, models;
    serve_synthetic(mirror.str());
    // The first choice is not on the server: the second is fetched.
    auto r = download(tiny({"pytorch_model.bin", "model.safetensors"}), models.str(), mirror.str());
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(entries(r.dir), (std::vector<std::string>{"config.json", "model.safetensors"}));
    // Only a .bin on the server: it is fetched (and must then load).
    ScratchDir models2;
    fs::rename(mirror.file("tiny/model.safetensors"), mirror.file("tiny/pytorch_model.bin"));
    vit::testing::write_bytes(mirror.file("tiny/pytorch_model.bin"), "not a checkpoint");
    r = download(tiny(), models2.str(), mirror.str());
    EXPECT_NE(r.error.find("do not load"), std::string::npos) << r.error;
    EXPECT_EQ(entries(models2.str()), std::vector<std::string>{".tiny.lock"});
    // Neither: a one-line error naming the model, nothing left.
    fs::remove(mirror.file("tiny/pytorch_model.bin"));
    r = download(tiny(), models2.str(), mirror.str());
    EXPECT_NE(r.error.find("test/tiny"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("none of its weight files"), std::string::npos) << r.error;
    EXPECT_EQ(r.error.find('\n'), std::string::npos);
    EXPECT_EQ(entries(models2.str()), std::vector<std::string>{".tiny.lock"});
}

TEST(ModelDownloader, BadDownloadsLeaveNothingAndKeepWhatWasThere) {
    ScratchDir mirror, models;
    serve_synthetic(mirror.str());
    // A model already there under the folder's name (from an earlier download) is the model: kept, not fetched again.
    ASSERT_EQ(download(tiny(), models.str(), mirror.str()).error, "");
    const std::string before = read(models.file("tiny/model.safetensors"));
    const std::string full = read(mirror.file("tiny/model.safetensors"));
    vit::testing::write_bytes(mirror.file("tiny/model.safetensors"), full.substr(0, full.size() / 2));
    auto r = download(tiny(), models.str(), mirror.str());
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(r.dir, models.file("tiny"));
    EXPECT_EQ(read(models.file("tiny/model.safetensors")), before);
    // Truncated weights: copied, then refused by the check; nothing left.
    ScratchDir models2;
    r = download(tiny(), models2.str(), mirror.str());
    EXPECT_NE(r.error.find("do not load"), std::string::npos) << r.error;
    EXPECT_EQ(entries(models2.str()), std::vector<std::string>{".tiny.lock"});
    // No config.json: named.
    vit::testing::write_bytes(mirror.file("tiny/model.safetensors"), full);
    fs::remove(mirror.file("tiny/config.json"));
    r = download(tiny(), models2.str(), mirror.str());
    EXPECT_NE(r.error.find("config.json"), std::string::npos) << r.error;
    EXPECT_EQ(entries(models2.str()), std::vector<std::string>{".tiny.lock"});
    // A mirror that does not answer (nothing listens on port 1 of the loopback): an error, nothing left.
    r = download(tiny(), models2.str(), "http://127.0.0.1:1");
    EXPECT_NE(r.error.find("model.safetensors"), std::string::npos) << r.error;
    EXPECT_EQ(entries(models2.str()), std::vector<std::string>{".tiny.lock"});
}

// Issue 33: a folder of the model's name that is not a downloaded model (its
// config.json beside the user's notes and lessons, no weights) was deleted
// whole. Its files are never touched: the download stops naming the folder.
TEST(ModelDownloader, AFolderOfTheUsersIsNeverDeleted) {
    ScratchDir mirror, models;
    serve_synthetic(mirror.str());
    const std::map<std::string, std::string> mine{{"config.json", "{\"mine\": true}"},
                                                  {"mynotes.txt", "notes"},
                                                  {"week3.vitscope", "{}"}};
    fs::create_directories(models.file("tiny"));
    for (const auto& [name, text] : mine) vit::testing::write_bytes(models.file("tiny/" + name), text);
    const auto r = download(tiny(), models.str(), mirror.str());
    EXPECT_NE(r.error.find(models.file("tiny") + " is there already and is not a model vitscope downloaded"),
              std::string::npos)
        << r.error;
    EXPECT_NE(r.error.find("mynotes.txt"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("move or rename it"), std::string::npos) << r.error;
    EXPECT_EQ(r.error.find('\n'), std::string::npos);
    EXPECT_EQ(r.dir, "");
    EXPECT_EQ(entries(models.str()), kTinyAndLock);  // no temporary folder left either
    EXPECT_EQ(entries(models.file("tiny")), (std::vector<std::string>{"config.json", "mynotes.txt", "week3.vitscope"}));
    for (const auto& [name, text] : mine) EXPECT_EQ(read(models.file("tiny/" + name)), text) << name;
    // A file of that name likewise.
    ScratchDir models2;
    vit::testing::write_bytes(models2.file("tiny"), "a file");
    EXPECT_NE(download(tiny(), models2.str(), mirror.str()).error.find("is there already"), std::string::npos);
    EXPECT_EQ(read(models2.file("tiny")), "a file");
    // An empty folder holds nothing to lose: the model goes there.
    ScratchDir models3;
    fs::create_directories(models3.file("tiny"));
    EXPECT_EQ(download(tiny(), models3.str(), mirror.str()).error, "");
    EXPECT_NO_THROW(vit::load_model(models3.file("tiny")));
}

// The old downloader emptied FOLDER.partial first, whoever had put it there.
// Now each download has a temporary folder of its own; only its own kind left
// by a run that died (.tiny.vitscope-PID-N.tmp, PID gone) is cleared.
TEST(ModelDownloader, ATemporaryFolderOfItsOwn) {
    ScratchDir mirror, models;
    serve_synthetic(mirror.str());
    fs::create_directories(models.file("tiny.partial"));
    vit::testing::write_bytes(models.file("tiny.partial/keep.txt"), "not the downloader's");
    // A pid that is no process: past the kernel's largest.
    fs::create_directories(models.file(".tiny.vitscope-2147483646-0.tmp"));
    vit::testing::write_bytes(models.file(".tiny.vitscope-2147483646-0.tmp/model.safetensors"), "half");
    const auto r = download(tiny(), models.str(), mirror.str());
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(entries(models.str()), (std::vector<std::string>{".tiny.lock", "tiny", "tiny.partial"}));
    EXPECT_EQ(read(models.file("tiny.partial/keep.txt")), "not the downloader's");
}

// Holds the model's download lock, as another window's download does.
class HeldLock {
public:
    explicit HeldLock(const std::string& path) : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666)) {
        EXPECT_EQ(::flock(fd_, LOCK_EX | LOCK_NB), 0);
    }
    ~HeldLock() { release(); }
    void release() {
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
    }

private:
    int fd_;
};

// Waits (up to 30 s) until the download shows `stage`.
bool reaches_stage(const ModelDownloader& d, const std::string& stage) {
    for (int i = 0; i < 3000 && d.view().stage != stage; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return d.view().stage == stage;
}

std::optional<ModelDownloader::Result> result_of(ModelDownloader& d) {
    for (int i = 0; i < 3000; ++i) {
        if (auto r = d.poll()) return r;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return std::nullopt;
}

// Issue 33: two windows fetching one model shared FOLDER.partial and both
// failed. The second now waits for the first, then opens what it brought.
TEST(ModelDownloader, ASecondDownloadOfTheModelWaitsForTheFirst) {
    ScratchDir mirror, models;
    serve_synthetic(mirror.str());
    HeldLock other(session::lock_path(tiny(), models.str()));
    ModelDownloader d;
    ASSERT_TRUE(d.start({tiny(), models.str(), mirror.str()}));
    ASSERT_TRUE(reaches_stage(d, "Waiting"));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_EQ(d.view().stage, "Waiting");
    EXPECT_EQ(entries(models.str()), std::vector<std::string>{".tiny.lock"});  // nothing fetched meanwhile
    // The other download installs the model, then ends.
    vit::testing::write_checkpoint(vit::testing::make_synthetic_model({}), models.file("tiny"), "timm",
                                   vit::DType::F32);
    const std::string theirs = read(models.file("tiny/model.safetensors"));
    other.release();
    const auto r = result_of(d);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->error, "");
    EXPECT_EQ(r->dir, models.file("tiny"));
    EXPECT_EQ(read(models.file("tiny/model.safetensors")), theirs);  // theirs, not fetched again
    EXPECT_EQ(entries(models.str()), kTinyAndLock);
}

TEST(ModelDownloader, WaitingCanBeCancelledAndAFailedFirstLeavesTheWayOpen) {
    ScratchDir mirror, models;
    serve_synthetic(mirror.str());
    {
        HeldLock other(session::lock_path(tiny(), models.str()));
        ModelDownloader d;
        ASSERT_TRUE(d.start({tiny(), models.str(), mirror.str()}));
        ASSERT_TRUE(reaches_stage(d, "Waiting"));
        d.cancel();
        const auto r = result_of(d);
        ASSERT_TRUE(r.has_value());
        EXPECT_EQ(r->error, "Cancelled the download of test/tiny");
    }
    // The other one ended without the model (it failed): the next download fetches it itself.
    HeldLock other(session::lock_path(tiny(), models.str()));
    ModelDownloader d;
    ASSERT_TRUE(d.start({tiny(), models.str(), mirror.str()}));
    ASSERT_TRUE(reaches_stage(d, "Waiting"));
    other.release();
    const auto r = result_of(d);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->error, "");
    EXPECT_NO_THROW(vit::load_model(models.file("tiny")));
}

// Two downloaders at once, as two windows: both end with the model, neither
// breaks the other's files.
TEST(ModelDownloader, TwoDownloadsAtOnceBothGetTheModel) {
    ScratchDir mirror;
    serve_synthetic(mirror.str());
    for (int round = 0; round < 5; ++round) {
        ScratchDir models;
        ModelDownloader a, b;
        ASSERT_TRUE(a.start({tiny(), models.str(), mirror.str()}));
        ASSERT_TRUE(b.start({tiny(), models.str(), mirror.str()}));
        const auto ra = result_of(a), rb = result_of(b);
        ASSERT_TRUE(ra && rb);
        EXPECT_EQ(ra->error, "");
        EXPECT_EQ(rb->error, "");
        EXPECT_EQ(ra->dir, models.file("tiny"));
        EXPECT_EQ(rb->dir, models.file("tiny"));
        EXPECT_EQ(entries(models.str()), kTinyAndLock);
        EXPECT_EQ(read(models.file("tiny/model.safetensors")), read(mirror.file("tiny/model.safetensors")));
    }
}

TEST(ModelDownloader, TheProgressCallbackAbortsOnCancel) {
    ModelDownloader d;
    EXPECT_TRUE(d.on_progress(10, 100));
    d.cancel();
    EXPECT_FALSE(d.on_progress(20, 100));
}

// Sets an environment variable for one scope.
class Env {
public:
    Env(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old, had_ = true;
        if (value) setenv(name, value, 1);
        else unsetenv(name);
    }
    ~Env() {
        if (had_) setenv(name_, old_.c_str(), 1);
        else unsetenv(name_);
    }

private:
    const char* name_;
    std::string old_;
    bool had_ = false;
};

TEST(DefaultModel, TheUsersDownloadsAreSearchedLast) {
    ScratchDir project, data, cwd;
    const fs::path old_cwd = fs::current_path();
    fs::current_path(cwd.str());  // no models/ here
    Env model("VITSCOPE_MODEL", nullptr), xdg("XDG_DATA_HOME", data.str().c_str());
    Env no_mirror("VITSCOPE_MODEL_MIRROR", "");  // the build's mirror (CI has one) out of the way
    EXPECT_EQ(vit::user_models_dir(), data.str() + "/vitscope/models");
    const std::string project_model = project.str() + "/models/" + vit::kDefaultModelName;
    const std::string user_model = data.str() + "/vitscope/models/" + vit::kDefaultModelName;
    EXPECT_EQ(vit::default_model_dir(project.str()), project_model);  // none there: the project's path
    fs::create_directories(user_model);
    EXPECT_EQ(vit::default_model_dir(project.str()), user_model);
    fs::create_directories(project_model);
    EXPECT_EQ(vit::default_model_dir(project.str()), project_model);  // models/ comes first
    {
        Env no_xdg("XDG_DATA_HOME", nullptr), home("HOME", "/home/someone");
        EXPECT_EQ(vit::user_models_dir(), "/home/someone/.local/share/vitscope/models");
    }
    {
        // A relative XDG_DATA_HOME is ignored (the XDG spec): it would put models under the working folder.
        Env relative("XDG_DATA_HOME", "data"), home("HOME", "/home/someone");
        EXPECT_EQ(vit::user_models_dir(), "/home/someone/.local/share/vitscope/models");
    }
    fs::current_path(old_cwd);
}

TEST(DefaultModel, TheMirrorComesAfterTheUsersDownloads) {
    ScratchDir project, data, mirror, cwd;
    const fs::path old_cwd = fs::current_path();
    fs::current_path(cwd.str());
    Env model("VITSCOPE_MODEL", nullptr), xdg("XDG_DATA_HOME", data.str().c_str()),
        mirror_env("VITSCOPE_MODEL_MIRROR", mirror.str().c_str());
    EXPECT_EQ(vit::model_mirror_dir(), mirror.str());
    const std::string mirror_model = mirror.str() + "/" + vit::kDefaultModelName;
    const std::string user_model = data.str() + "/vitscope/models/" + vit::kDefaultModelName;
    EXPECT_EQ(vit::default_model_dir(project.str()), project.str() + "/models/" + vit::kDefaultModelName);
    fs::create_directories(mirror_model);
    EXPECT_EQ(vit::default_model_dir(project.str()), mirror_model);
    fs::create_directories(user_model);
    EXPECT_EQ(vit::default_model_dir(project.str()), user_model);  // the user's own copy first
    {
        Env url("VITSCOPE_MODEL_MIRROR", ("file://" + mirror.str()).c_str());
        EXPECT_EQ(vit::model_mirror_dir(), mirror.str());
        Env http("VITSCOPE_MODEL_MIRROR", "http://127.0.0.1:9/models");
        EXPECT_EQ(vit::model_mirror_dir(), "");
    }
    fs::current_path(old_cwd);
}

}  // namespace
