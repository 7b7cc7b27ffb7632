#include "vit/base/output_file.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>

#include "vit/base/file_system_calls.h"
#include "vit/base/temporaries.h"

namespace vit {
namespace {

namespace fs = std::filesystem;

// Room the temporary name needs beyond the output's own: ".NAME.vitscope-PID-SEQ.tmp".
constexpr size_t kTempExtra = 40;

std::string errno_text(int err) { return std::strerror(err); }

[[noreturn]] void cannot(const std::string& path, const std::string& why) {
    throw Error("cannot write " + path + ": " + why);
}

fs::path folder_of(const std::string& path) {
    const fs::path dir = fs::path(path).parent_path();
    return dir.empty() ? fs::path(".") : dir;
}

bool same_file(const fs::path& a, const fs::path& b) {
    std::error_code ec;
    const bool same = fs::equivalent(a, b, ec);
    return !ec && same;
}

// The rules' protected files, checked on the file as it is now, and the
// protected folders, into which nothing is written, not even a new file.
void refuse_protected(const std::string& path, const OutputRules& rules) {
    std::error_code ec;
    if (fs::exists(path, ec))
        for (const OutputRules::Protected& p : rules.protected_files)
            if (!p.path.empty() && same_file(path, p.path))
                throw Error(path + " is " + p.what + " (" + p.path +
                            "); vitscope never writes over it, even with --force");
    // The folder the name is in, and the one it leads to (a link in the model folder, or to it).
    const fs::path named_in = fs::absolute(path, ec).parent_path();
    const fs::path real_in = fs::weakly_canonical(path, ec).parent_path();
    for (const std::string& folder : rules.protected_folders)
        if (!folder.empty() && (same_file(named_in, folder) || same_file(real_in, folder)))
            throw Error(path + " is in the open model's folder (" + folder +
                        "); vitscope never writes over or into it, even with --force");
}

// The descriptor a name stands for without being a file to replace: "-" and
// /dev/stdout are standard output, /dev/stderr and /dev/fd/N, /proc/self/fd/N
// theirs (through a shell's redirection these may be regular files, which
// must be written where the shell opened them, not renamed over). -1 otherwise.
int standard_fd(const std::string& path) {
    if (path == "-" || path == "/dev/stdout") return 1;
    if (path == "/dev/stderr") return 2;
    for (const char* prefix : {"/dev/fd/", "/proc/self/fd/"}) {
        const std::string p(prefix);
        if (path.rfind(p, 0) != 0 || path.size() == p.size() || path.size() > p.size() + 6) continue;
        const std::string digits = path.substr(p.size());
        if (digits.find_first_not_of("0123456789") == std::string::npos) return std::stoi(digits);
    }
    return -1;
}

// The name with the links of its last part followed: where the file is (or
// will be). A symlinked output is replaced there, atomically, and the link kept.
std::string through_links(const std::string& path) {
    std::string p = path;
    for (int hop = 0; hop < 40; ++hop) {
        struct stat st {};
        if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
        std::error_code ec;
        const fs::path target = fs::read_symlink(p, ec);
        if (ec) return p;
        const fs::path folder = fs::path(p).parent_path();
        p = target.is_absolute() || folder.empty() ? target.string() : (folder / target).string();
    }
    throw Error(path + ": too many levels of symbolic links");
}

// A FIFO, a character or block device or a socket: written into, never replaced.
bool is_special(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

std::string temp_name(const std::string& path) {
    static std::atomic<unsigned> sequence{0};
    // Appended piece by piece: GCC 12 warns falsely on "." + std::string&& (stringop-overflow).
    std::string name(1, '.');
    name.append(fs::path(path).filename().string());
    name.append(".vitscope-").append(std::to_string(::getpid())).append("-").append(std::to_string(sequence++));
    name.append(".tmp");
    return (folder_of(path) / name).string();
}

// Renames without replacing anything (RENAME_NOREPLACE; a hard link where the
// file system lacks it). Returns errno, 0 on success.
int rename_no_replace(const std::string& from, const std::string& to, bool folder) {
    const int err = fs_calls::rename_no_replace(from.c_str(), to.c_str());
    if (err == 0) return 0;
    if ((err != EINVAL && err != ENOSYS) || folder) return err;
    if (::link(from.c_str(), to.c_str()) != 0) return errno;
    ::unlink(from.c_str());
    return 0;
}

void move_into_place(const std::string& temp, const std::string& path, const OutputRules& rules) {
    int err = 0;
    if (rules.force) {
        refuse_protected(path, rules);  // again: it may have appeared since the check
        struct stat now {};
        if (::lstat(path.c_str(), &now) == 0 && !S_ISREG(now.st_mode) && !S_ISLNK(now.st_mode))
            throw Error(path +
                        " is not a regular file (it appeared while the output was being written); vitscope "
                        "never replaces a special file, even with --force");
        if (::rename(temp.c_str(), path.c_str()) != 0) err = errno;
    } else {
        err = rename_no_replace(temp, path, false);
        if (err == EEXIST || err == ENOTEMPTY) throw OutputExists(path);
    }
    if (err) cannot(path, errno_text(err));
}

// The path as the file system will see it: absolute, through the links and
// `..` of what exists already, without a trailing slash.
fs::path resolved(const std::string& path) {
    std::error_code ec;
    fs::path p = fs::weakly_canonical(fs::absolute(path), ec);
    if (ec) p = fs::absolute(path).lexically_normal();
    if (p.filename().empty()) p = p.parent_path();
    return p;
}

// Whether inner is a path below outer.
bool lies_inside(const fs::path& inner, const fs::path& outer) {
    const auto [o, i] = std::mismatch(outer.begin(), outer.end(), inner.begin(), inner.end());
    return o == outer.end() && i != inner.end();
}

}  // namespace

OutputExists::OutputExists(const std::string& p) : Error(p + " exists; pass --force to replace it"), path(p) {}

void check_output(const std::string& named, const OutputRules& rules, OutputKind kind) {
    if (named.empty()) throw Error("an empty output name");
    if (kind == OutputKind::Folder && named == "-")
        throw Error("- (standard output) cannot hold a folder; name a new folder");
    if (kind == OutputKind::File && standard_fd(named) >= 0) return;  // written into, as a shell's > would
    // A symlink's target is checked (and later replaced); a special file is written into, even without --force.
    const std::string path = kind == OutputKind::File ? through_links(named) : named;
    if (path != named) refuse_protected(named, rules);  // a link inside the model's folder, or to the photo
    refuse_protected(path, rules);
    if (kind == OutputKind::File && is_special(path)) return;
    const fs::path p(path);
    const std::string name = p.filename().string();
    if (name.empty() || name == "." || name == "..")
        throw Error(path + " names a folder, not a new " + (kind == OutputKind::File ? "file" : "folder"));
    const fs::path dir = folder_of(path);
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0) {
        const int err = errno;
        if (err == ENOTDIR) {
            // Name the part of the path that is a file.
            fs::path part;
            for (const fs::path& piece : dir) {
                part /= piece;
                struct stat ps {};
                if (::stat(part.c_str(), &ps) == 0 && !S_ISDIR(ps.st_mode))
                    throw Error(path + ": " + part.string() + " is a file, not a folder");
            }
        }
        if (err == ENOENT) throw Error(path + ": folder " + dir.string() + " does not exist");
        cannot(path, dir.string() + ": " + errno_text(err));
    }
    if (!S_ISDIR(st.st_mode)) throw Error(path + ": " + dir.string() + " is a file, not a folder");
    long name_max = ::pathconf(dir.c_str(), _PC_NAME_MAX);
    if (name_max <= 0) name_max = NAME_MAX;
    if (name.size() + kTempExtra > static_cast<size_t>(name_max))
        throw Error(path + ": the name is " + std::to_string(name.size()) + " bytes; at most " +
                    std::to_string(name_max - static_cast<long>(kTempExtra)) +
                    " leave room for the temporary name it is written under");
    if (path.size() + kTempExtra >= temporaries::kMaxPath)
        throw Error(path.substr(0, 80) + "...: the path is too long");
    struct stat target {};
    if (::lstat(path.c_str(), &target) == 0) {
        struct stat followed {};
        const bool is_dir = ::stat(path.c_str(), &followed) == 0 && S_ISDIR(followed.st_mode);
        if (kind == OutputKind::Folder) throw Error(path + " exists already; the output goes into a new folder");
        if (is_dir) throw Error(path + " is a directory, not a file");
        if (!rules.force) throw OutputExists(path);
    } else if (errno != ENOENT) {
        cannot(path, errno_text(errno));
    }
    if (::access(dir.c_str(), W_OK) != 0) cannot(path, dir.string() + ": " + errno_text(errno));
}

OutputTemp::OutputTemp(const std::string& path, const OutputRules& rules) : path_(path), rules_(rules) {
    if (const int standard = standard_fd(path); standard >= 0) {
        direct_ = true;
        fd_ = ::fcntl(standard, F_DUPFD_CLOEXEC, 3);
        if (fd_ < 0) cannot(path, errno_text(errno));
        return;
    }
    path_ = through_links(path);
    if (path_ != path) refuse_protected(path, rules);
    if (is_special(path_)) {
        direct_ = true;
        fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC | (rules.wait_for_reader ? 0 : O_NONBLOCK));
        if (fd_ < 0 && errno == ENXIO) cannot(path, "a FIFO that nothing reads");
        if (fd_ < 0) cannot(path, errno_text(errno));
        if (!rules.wait_for_reader) ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);  // then write whole
        return;
    }
    for (int attempt = 0; attempt < 100 && fd_ < 0; ++attempt) {
        temp_ = temp_name(path);
        slot_ = temporaries::add(temp_, false);  // before it exists: a signal now removes nothing, or it
        fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd_ >= 0) break;
        const int err = errno;
        temporaries::forget(slot_);
        slot_ = -1;
        if (err != EEXIST) cannot(path_, errno_text(err));
    }
    if (fd_ < 0) cannot(path_, "no free temporary name beside it");
}

OutputTemp::~OutputTemp() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
    temporaries::forget(slot_);
}

void OutputTemp::write(std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) cannot(path_, n < 0 ? errno_text(errno) : "nothing written");
        bytes.remove_prefix(static_cast<size_t>(n));
    }
}

int OutputTemp::release_fd() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
}

void OutputTemp::commit() {
    if (fd_ >= 0) {
        const int closed = ::close(fd_);
        fd_ = -1;
        if (closed != 0) cannot(path_, errno_text(errno));
    }
    if (!direct_) move_into_place(temp_, path_, rules_);
    committed_ = true;
}

OutputFolder::OutputFolder(const std::string& path, const OutputRules& rules, FolderCheck earlier_output)
    : path_(through_links(path)), rules_(rules), earlier_output_(std::move(earlier_output)) {
    if (path_ != path) refuse_protected(path, rules);  // a link inside the model's folder
    struct stat st {};
    if (earlier_output_ && ::lstat(path_.c_str(), &st) == 0) {
        if (!rules.force) throw OutputExists(path);
        if (!S_ISDIR(st.st_mode))
            throw Error(path + " is a file, not a folder; vitscope never replaces it, even with --force");
        refuse_protected(path_, rules);
        if (const std::string why = earlier_output_(path_); !why.empty())
            throw Error(path + " " + why + "; --force replaces nothing else");
        replacing_ = true;
    } else {
        check_output(path_, rules, OutputKind::Folder);
    }
    for (int attempt = 0; attempt < 100; ++attempt) {
        temp_ = temp_name(path_);
        slot_ = temporaries::add(temp_, true);
        if (::mkdir(temp_.c_str(), 0777) == 0) return;
        const int err = errno;
        temporaries::forget(slot_);
        slot_ = -1;
        if (err != EEXIST) cannot(path_, errno_text(err));
    }
    cannot(path_, "no free temporary name beside it");
}

OutputFolder::~OutputFolder() {
    if (!committed_ && !temp_.empty()) {
        std::error_code ec;
        fs::remove_all(temp_, ec);
    }
    temporaries::forget(slot_);
}

void OutputFolder::write(const std::string& name, std::string_view bytes) {
    if (name.empty() || name.find('/') != std::string::npos) throw Error("'" + name + "' is not a plain file name");
    const std::string path = temp_ + "/" + name;
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) cannot(path_ + "/" + name, errno_text(errno));
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const int err = errno;
            ::close(fd);
            cannot(path_ + "/" + name, n < 0 ? errno_text(err) : "nothing written");
        }
        bytes.remove_prefix(static_cast<size_t>(n));
    }
    if (::close(fd) != 0) cannot(path_ + "/" + name, errno_text(errno));
}

int OutputFolder::move_to(const std::string& to) {
    if (!replacing_ || to != path_) return rename_no_replace(temp_, to, true);
    // The earlier output, checked again now: only what still is one is replaced.
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(path_, ec))) return rename_no_replace(temp_, to, true);
    if (!earlier_output_(path_).empty()) return EEXIST;
    if (const int err = fs_calls::rename_exchange(temp_.c_str(), path_.c_str()); err != 0)
        return err == ENOENT ? rename_no_replace(temp_, to, true) : err;
    // The earlier one is at the temporary name now; swapped back should anything else have slipped in.
    if (!earlier_output_(temp_).empty()) {
        fs_calls::rename_exchange(temp_.c_str(), path_.c_str());
        return EEXIST;
    }
    fs::remove_all(temp_, ec);
    return 0;
}

void OutputFolder::commit() {
    const int err = move_to(path_);
    if (err == EEXIST || err == ENOTEMPTY)
        throw Error(path_ +
                    " exists: it appeared while the output was being written; vitscope never replaces "
                    "a folder it did not write (nothing was written): choose a new name");
    if (err) cannot(path_, errno_text(err));
    committed_ = true;
}

std::string OutputFolder::commit_beside() {
    int err = move_to(path_);
    std::string to = path_;
    for (int n = 2; (err == EEXIST || err == ENOTEMPTY) && n <= 1000; ++n) {
        to = path_ + "-" + std::to_string(n);
        err = rename_no_replace(temp_, to, true);
    }
    if (err) cannot(path_, errno_text(err));
    committed_ = true;
    return to;
}

void check_apart(const std::string& a_flag, const std::string& a, const std::string& b_flag, const std::string& b) {
    if (a.empty() || b.empty()) return;
    const fs::path pa = resolved(a), pb = resolved(b);
    const auto refuse = [](const std::string& why) { throw Error(why + "; give each output a place of its own"); };
    if (pa == pb) refuse(a_flag + " " + a + " and " + b_flag + " " + b + " are the same path");
    if (lies_inside(pa, pb)) refuse(a_flag + " " + a + " lies inside " + b_flag + " " + b);
    if (lies_inside(pb, pa)) refuse(b_flag + " " + b + " lies inside " + a_flag + " " + a);
}

void write_output(const std::string& path, std::string_view bytes, const OutputRules& rules) {
    check_output(path, rules);
    OutputTemp temp(path, rules);
    temp.write(bytes);
    temp.commit();
}

void remove_temporaries_on_signals() { temporaries::install_signal_handlers(); }

int live_temporaries() { return temporaries::live(); }

}  // namespace vit
