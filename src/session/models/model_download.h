// File > Get a model…: downloads a known model with libcurl in the
// background (a JobThread), into a temporary folder of its own beside DIR/FOLDER
// (vit::OutputFolder), checks that it loads, and only then renames it
// DIR/FOLDER, never replacing anything. A failure of any kind (offline, 404,
// cancelled, a transfer that stops half-way, files that do not load) removes
// the temporary folder and reports one line; whatever was open stays open.
// Downloads of one model take turns on a lock file (DIR/.FOLDER.lock): the
// second waits, then finds the model the first brought. A DIR/FOLDER that is
// not a downloaded model (the user's files) is never deleted: the download
// stops and names it.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include "session/base/job_thread.h"
#include "session/models/known_models.h"

namespace session {

// What the dialog and the state file show about the download.
struct DownloadView {
    std::string model;         // the known name being fetched; empty when idle
    std::string file;          // the file arriving now
    std::string stage;         // "Downloading" or "Checking"
    double done_mb = 0;        // so far, all files of this download
    double total_mb = 0;       // 0 while the server has not said
    double seconds_left = -1;  // from the current file's average rate; -1 while unknown
    std::string error;         // the last download's error; empty after a success
    bool running() const { return !model.empty(); }
};

// The URL of one of the model's files: the hub's, or MIRROR/FOLDER/FILE when
// a mirror (a folder, or a file:// or http(s):// URL) is given.
std::string file_url(const KnownModel& m, const std::string& file, const std::string& mirror);

// Whether models_dir/FOLDER holds config.json and one of the model's weight files.
bool is_downloaded(const KnownModel& m, const std::string& models_dir);

// The file whose flock a download of the model holds while it runs.
std::string lock_path(const KnownModel& m, const std::string& models_dir);

class ModelDownloader {
public:
    struct Request {
        KnownModel model;
        std::string models_dir;  // the folder goes in here
        std::string mirror;      // VITSCOPE_MODEL_MIRROR; empty: the hub
    };
    struct Result {
        std::string model;  // the known name
        std::string dir;    // the model's folder on success
        std::string error;  // one line otherwise
    };

    // on_done runs in the background when a download ends (the window wakes its event loop with it).
    explicit ModelDownloader(std::function<void()> on_done = {});
    ~ModelDownloader();  // cancels and waits
    ModelDownloader(const ModelDownloader&) = delete;
    ModelDownloader& operator=(const ModelDownloader&) = delete;

    // Starts a download; false (nothing started) while another one runs.
    bool start(const Request& request);
    void cancel();
    DownloadView view() const;
    // The result of the download that ended, once.
    std::optional<Result> poll();

    // libcurl's progress callback: records the bytes; false aborts the transfer (cancel).
    bool on_progress(std::int64_t now, std::int64_t total);

private:
    void run_waiting();  // jobs_'s work: the download started, if any
    Result run(const Request& request);
    // Fetches url to path; false when the server has no such file. Throws otherwise.
    bool fetch(const std::string& url, const std::string& path, const std::string& file);

    std::function<void()> on_done_;
    mutable std::mutex mutex_;
    DownloadView view_;
    std::optional<Result> done_;
    std::int64_t bytes_before_ = 0;  // finished files of this download (jobs_ only)
    double file_started_ = 0;        // when the current file started (jobs_ only)
    std::atomic<bool> cancel_{false};
    std::optional<Request> pending_;  // started, not yet begun
    JobThread jobs_;                  // last: runs after everything above exists
};

}  // namespace session
