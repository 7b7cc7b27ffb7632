// The one rule every writer follows (command line -o and --csv, the window's
// exports and script verbs, slides, sweeps, settings):
//   - an existing file is replaced only when the caller says so (force);
//   - a protected file (the photo, the comparison photo, a file of the open
//     model) is never written over, even with force;
//   - the bytes go to a temporary name unique to this run, in the same folder,
//     which is renamed into place once complete; without force the rename
//     refuses to replace a file that appeared meanwhile, so of two runs on one
//     name exactly one succeeds and the other says so;
//   - "-" and /dev/stdout (/dev/stderr, /dev/fd/N) are the process's own
//     descriptors, written into; so is a FIFO, a character or block device or a
//     socket, without --force, and --force never replaces one;
//   - a symlink is followed: its target is replaced as above, the link kept;
//   - SIGINT, SIGTERM, SIGHUP, SIGPIPE and SIGXFSZ remove the run's temporaries (remove_temporaries_on_signals);
//   - everything checkable (the name's length with the temporary suffix, the
//     folder, an existing file) is checked by check_output before any work.
// Errors are vit::Error, one line naming the path and errno's text.
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "vit/base/error.h"

namespace vit {

struct OutputRules {
    bool force = false;  // an existing file may be replaced
    struct Protected {
        std::string path;
        std::string what;  // for the refusal: "the photo being read", "the tour being read"
    };
    std::vector<Protected> protected_files;      // never written over (the photos, the tour)
    std::vector<std::string> protected_folders;  // no file directly inside is written over (the model)
    // A FIFO output waits for its reader, as a shell's > does; false fails at
    // once instead (the program's own files, e.g. settings.json at exit).
    bool wait_for_reader = true;
};

enum class OutputKind { File, Folder };

// Thrown when the output exists and force was not given: the window asks
// whether to replace it, everything else reports it.
struct OutputExists : Error {
    std::string path;
    explicit OutputExists(const std::string& p);
};

// Refuses, before any work: an empty name, a name too long once the temporary
// suffix is added, a folder that does not exist or is a file, an output that
// is a folder (File) or exists at all (Folder), an existing file without
// force (OutputExists), a protected file.
void check_output(const std::string& path, const OutputRules& rules, OutputKind kind = OutputKind::File);

// A temporary file for `path`, unique to this run, renamed into place by
// commit(); removed by the destructor (and by a signal) otherwise.
class OutputTemp {
public:
    OutputTemp(const std::string& path, const OutputRules& rules);
    ~OutputTemp();
    OutputTemp(const OutputTemp&) = delete;
    OutputTemp& operator=(const OutputTemp&) = delete;

    int fd() const { return fd_; }  // open for writing
    const std::string& temp_path() const { return temp_; }
    void write(std::string_view bytes);  // all of it, or throws
    // Hands the descriptor to someone who closes it (giflib).
    int release_fd();
    void commit();  // closes (if still open) and renames into place

private:
    std::string path_, temp_;
    OutputRules rules_;
    int fd_ = -1, slot_ = -1;
    bool committed_ = false;
    bool direct_ = false;  // a descriptor or special file written into: no temporary
};

// Whether an existing folder is an earlier output of the same kind (a training
// run), which --force may replace: "" when it is, else why not ("it holds
// notes.txt, which vitscope train does not write").
using FolderCheck = std::function<std::string(const std::string& folder)>;

// A new folder written whole: files go into a temporary folder beside it,
// renamed to `path` by commit(); removed otherwise. The folder must not exist,
// unless rules.force and `earlier_output` accepts it: then commit() swaps the
// new folder in (RENAME_EXCHANGE) and removes the earlier one, which is
// checked again at that moment. A symlinked `path` is written at its target,
// the link kept. Nothing else is ever removed or replaced.
class OutputFolder {
public:
    OutputFolder(const std::string& path, const OutputRules& rules, FolderCheck earlier_output = {});
    ~OutputFolder();
    OutputFolder(const OutputFolder&) = delete;
    OutputFolder& operator=(const OutputFolder&) = delete;

    void write(const std::string& name, std::string_view bytes);  // a plain name, no folders
    const std::string& temp_path() const { return temp_; }
    const std::string& path() const { return path_; }  // where it goes: the named path, through its links
    // Refuses (nothing kept) when a folder appeared at `path` meanwhile.
    void commit();
    // The same, but a folder that appeared at `path` meanwhile wins: this one
    // goes to the first free "path-2", "path-3", ... Returns where it went.
    std::string commit_beside();

private:
    std::string path_, temp_;
    OutputRules rules_;
    FolderCheck earlier_output_;
    bool replacing_ = false;  // path holds an earlier output that commit() replaces
    int slot_ = -1;
    bool committed_ = false;
    // Into place at `to`: 0, or errno (EEXIST/ENOTEMPTY when something else is there).
    int move_to(const std::string& to);
};

// Refuses two outputs of one run that are the same path or one inside the
// other (`-o k.gif --frames k.gif`), before any work: the second would fail
// once the first was written, or write into it. The flags name them.
void check_apart(const std::string& a_flag, const std::string& a, const std::string& b_flag, const std::string& b);

// check_output, then the whole file through an OutputTemp.
void write_output(const std::string& path, std::string_view bytes, const OutputRules& rules);

// Installs handlers for SIGINT, SIGTERM, SIGHUP, SIGPIPE and SIGXFSZ (once) that remove every live temporary
// of this run, then die of the signal as before.
void remove_temporaries_on_signals();

// How many temporaries of this run exist now (for tests).
int live_temporaries();

}  // namespace vit
