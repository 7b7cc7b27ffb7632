#include "session/models/model_download.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <thread>

#include "session/base/clock.h"
#include "session/models/url_transfer.h"
#include "vit/base/error.h"
#include "vit/base/output_file.h"
#include "vit/formats/checkpoint.h"
#include "vit/model/config.h"
#include "vit/model/model.h"

namespace session {
namespace {

namespace fs = std::filesystem;

struct Cancelled {};

// A local path as the path of a file:// URL: every byte but unreserved ones and '/' percent-encoded.
std::string url_path(const std::string& path) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : path) {
        if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') out += static_cast<char>(c);
        else out += {'%', hex[c >> 4], hex[c & 15]};
    }
    return out;
}

// An exclusive flock on the model's lock file, held while this download runs:
// a second download of the model (another window) waits for the first to end.
class DownloadLock {
public:
    // keep_waiting runs every 100 ms while another download holds the lock; false gives up (Cancelled).
    DownloadLock(const std::string& path, const std::function<bool()>& keep_waiting)
        : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666)) {
        if (fd_ < 0) throw vit::Error(path + ": cannot be made (" + std::strerror(errno) + ")");
        while (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
            if (errno != EWOULDBLOCK && errno != EINTR) {
                const int err = errno;
                ::close(fd_);
                throw vit::Error(path + ": cannot be locked (" + std::strerror(err) + ")");
            }
            if (!keep_waiting()) {
                ::close(fd_);
                throw Cancelled{};
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    }
    ~DownloadLock() { ::close(fd_); }  // closing releases the lock
    DownloadLock(const DownloadLock&) = delete;
    DownloadLock& operator=(const DownloadLock&) = delete;

private:
    int fd_;
};

// Temporary folders of this model's downloads whose process is gone (killed
// mid-way): vit::OutputFolder names them .FOLDER.vitscope-PID-SEQ.tmp. Called
// under the lock, so no live download of the model owns one.
void remove_leftovers(const fs::path& dest) {
    const std::string prefix = "." + dest.filename().string() + ".vitscope-";
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dest.parent_path(), ec)) {
        const std::string name = e.path().filename().string();
        if (name.rfind(prefix, 0) != 0 || !name.ends_with(".tmp") || !e.is_directory(ec)) continue;
        const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
        if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) fs::remove_all(e.path(), ec);
    }
}

// The model's folder name must be free: an empty folder is taken out of the
// way (nothing in it to lose); anything else there is the user's and is
// never deleted, so the download stops naming it.
void clear_the_way(const fs::path& dest) {
    std::error_code ec;
    const fs::file_status st = fs::symlink_status(dest, ec);
    if (!fs::exists(st)) return;
    if (fs::is_directory(st) && fs::is_empty(dest, ec) && !ec && fs::remove(dest, ec)) return;
    std::string held;
    int shown = 0;
    if (fs::is_directory(st))
        for (const auto& e : fs::directory_iterator(dest, ec)) {
            if (shown++ == 3) {
                held += ", ...";
                break;
            }
            held += (held.empty() ? "" : ", ") + e.path().filename().string();
        }
    throw vit::Error(dest.string() + " is there already and is not a model vitscope downloaded" +
                     (held.empty() ? "" : " (it holds " + held + ")") +
                     "; it is left as it is: move or rename it, then get the model again");
}

// One rename, refusing to replace: the folder appears whole. A model put
// there meanwhile (scripts/fetch_model.sh) is kept and used; anything else
// that took the name (but an empty folder) is kept and named.
void install(vit::OutputFolder& folder, const fs::path& dest, const KnownModel& m) {
    try {
        folder.commit();
    } catch (const vit::Error&) {
        if (is_downloaded(m, dest.parent_path().string())) return;
        clear_the_way(dest);
        folder.commit();
    }
}

}  // namespace

std::string lock_path(const KnownModel& m, const std::string& models_dir) {
    return (fs::path(models_dir) / ("." + m.folder + ".lock")).string();
}

std::string file_url(const KnownModel& m, const std::string& file, const std::string& mirror) {
    if (mirror.empty()) return "https://huggingface.co/" + m.repo + "/resolve/main/" + file;
    std::string base = mirror;
    if (base.find("://") == std::string::npos)
        base = "file://" + url_path(fs::absolute(base).lexically_normal().string());
    while (!base.empty() && base.back() == '/') base.pop_back();
    return base + "/" + m.folder + "/" + file;
}

bool is_downloaded(const KnownModel& m, const std::string& models_dir) {
    std::error_code ec;
    const fs::path dir = fs::path(models_dir) / m.folder;
    if (models_dir.empty() || !fs::is_regular_file(dir / vit::kConfigFileName, ec)) return false;
    for (const std::string& w : m.weights)
        if (fs::is_regular_file(dir / w, ec)) return true;
    return false;
}

ModelDownloader::ModelDownloader(std::function<void()> on_done)
    : on_done_(std::move(on_done)), jobs_([this] { run_waiting(); }) {
    init_url_transfers();
}

ModelDownloader::~ModelDownloader() { cancel_ = true; }

bool ModelDownloader::start(const Request& request) {
    {
        std::lock_guard lock(mutex_);
        if (view_.running()) return false;
        view_ = DownloadView{};
        view_.model = request.model.name;
        view_.stage = "Starting";
        done_.reset();
    }
    jobs_.finish_waiting();  // the previous download, already over
    cancel_ = false;
    {
        std::lock_guard lock(mutex_);
        pending_ = request;
    }
    jobs_.wake();
    return true;
}

void ModelDownloader::run_waiting() {
    std::optional<Request> request;
    {
        std::lock_guard lock(mutex_);
        request = std::move(pending_);
        pending_.reset();
    }
    if (!request) return;
    Result r = run(*request);
    {
        std::lock_guard lock(mutex_);
        view_.model.clear();
        view_.file.clear();
        view_.stage.clear();
        view_.seconds_left = -1;
        view_.error = r.error;
        done_ = std::move(r);
    }
    if (on_done_) on_done_();
}

void ModelDownloader::cancel() { cancel_ = true; }

DownloadView ModelDownloader::view() const {
    std::lock_guard lock(mutex_);
    return view_;
}

std::optional<ModelDownloader::Result> ModelDownloader::poll() {
    std::lock_guard lock(mutex_);
    std::optional<Result> r = std::move(done_);
    done_.reset();
    return r;
}

ModelDownloader::Result ModelDownloader::run(const Request& request) {
    const KnownModel& m = request.model;
    Result r;
    r.model = m.name;
    const fs::path dest = fs::path(request.models_dir) / m.folder;
    std::error_code ec;
    bytes_before_ = 0;
    try {
        if (request.models_dir.empty())
            throw vit::Error("no folder for models (neither XDG_DATA_HOME nor HOME is set)");
        if (!fs::create_directories(request.models_dir, ec) && ec)
            throw vit::Error(request.models_dir + ": cannot be made (" + ec.message() + ")");
        const DownloadLock lock(lock_path(m, request.models_dir), [this] {
            std::lock_guard guard(mutex_);
            view_.stage = "Waiting";  // for the other download of this model to end
            return !cancel_;
        });
        if (is_downloaded(m, request.models_dir)) {  // the download we waited for brought it
            r.dir = dest.string();
            return r;
        }
        remove_leftovers(dest);
        clear_the_way(dest);
        // A folder of this download's own beside the destination, removed unless installed (also on SIGINT/SIGTERM).
        vit::OutputFolder folder(dest.string(), {});
        const fs::path temp = folder.temp_path();
        auto get = [&](const std::string& file) {
            return fetch(file_url(m, file, request.mirror), (temp / file).string(), file);
        };
        std::string weights;
        for (const std::string& w : m.weights)
            if (get(w)) {
                weights = w;
                break;
            }
        if (weights.empty())
            throw vit::Error("none of its weight files is on the server (" +
                             file_url(m, m.weights.front(), request.mirror) + ": not found)");
        for (const std::string& f : m.files)
            if (!get(f)) throw vit::Error(file_url(m, f, request.mirror) + ": not found");
        for (const std::string& f : m.optional) get(f);

        {
            std::lock_guard lock(mutex_);
            view_.stage = "Checking";
            view_.file = weights;
            view_.seconds_left = -1;
        }
        try {
            vit::load_model(temp.string());  // config.json parses, the weights load and fit it
        } catch (const std::exception& e) {
            throw vit::Error("the downloaded files do not load: " + std::string(e.what()));
        }
        if (cancel_) throw Cancelled{};
        install(folder, dest, m);
        r.dir = dest.string();
    } catch (const Cancelled&) {
        r.error = "Cancelled the download of " + m.name;
    } catch (const std::exception& e) {
        r.error = "Could not get " + m.name + ": " + e.what();
    }
    return r;
}

bool ModelDownloader::fetch(const std::string& url, const std::string& path, const std::string& file) {
    {
        std::lock_guard lock(mutex_);
        view_.stage = "Downloading";
        view_.file = file;
        view_.seconds_left = -1;
    }
    file_started_ = now_seconds();
    std::unique_ptr<FILE, int (*)(FILE*)> out(std::fopen(path.c_str(), "wb"), &std::fclose);
    if (!out) throw vit::Error(path + ": cannot be written");
    const UrlTransfer t =
        transfer_url(url, out.get(), [this](std::int64_t now, std::int64_t total) { return on_progress(now, total); });
    const bool closed_ok = std::fclose(out.release()) == 0;
    if (t.outcome == UrlTransfer::Outcome::Done) {
        if (!closed_ok) throw vit::Error(path + ": cannot be written");
        bytes_before_ += t.got;
        return true;
    }
    std::error_code ec;
    fs::remove(path, ec);
    if (t.outcome == UrlTransfer::Outcome::Cancelled && cancel_) throw Cancelled{};
    if (t.outcome == UrlTransfer::Outcome::NotFound) return false;
    throw vit::Error(file + ": " + t.why);
}

bool ModelDownloader::on_progress(std::int64_t now, std::int64_t total) {
    const double elapsed = now_seconds() - file_started_;
    std::lock_guard lock(mutex_);
    view_.done_mb = static_cast<double>(bytes_before_ + now) / 1e6;
    view_.total_mb = total > 0 ? static_cast<double>(bytes_before_ + total) / 1e6 : 0;
    // The average rate of this file so far; none until it has run a moment.
    view_.seconds_left = total > 0 && now > 0 && elapsed > 0.5 ? static_cast<double>(total - now) * elapsed / now : -1;
    return !cancel_;
}

}  // namespace session
