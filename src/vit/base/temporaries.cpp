#include "vit/base/temporaries.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <mutex>

#include "vit/base/error.h"
#include "vit/base/file_system_calls.h"

namespace vit::temporaries {
namespace {

// Enough for every writer of one run at once (a sweep's GIF and its frames
// folder, a window export beside the settings file).
constexpr int kSlots = 64;

struct Slot {
    std::atomic<int> state{0};  // 0 free, 1 being filled, 2 a file, 3 a folder
    char path[kMaxPath];
};
Slot slots[kSlots];
std::mutex claim;  // between threads only; the handler reads states, never locks

// Removes a folder's files, and those of its folders one level down (a
// training run's step_NNNNNN/ and samples/), then the folder. Only
// async-signal-safe calls; a buffer per level, since a level's listing is read
// while the one below is removed.
void remove_folder(int parent, const char* path, int depth) {
    alignas(8) static char buffers[2][8192];
    const int fd = ::openat(parent, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (fd >= 0) {
        char* buffer = buffers[depth];
        for (;;) {
            const long n = fs_calls::read_folder_entries(fd, buffer, sizeof buffers[0]);
            if (n <= 0) break;
            for (long at = 0; at < n;) {
                const auto* entry = reinterpret_cast<const struct dirent64*>(buffer + at);
                const char* name = entry->d_name;
                if (!(name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0)))) {
                    if (::unlinkat(fd, name, 0) != 0 && depth == 0 && entry->d_type == DT_DIR) {
                        remove_folder(fd, name, 1);
                    }
                }
                at += entry->d_reclen;
            }
        }
        ::close(fd);
    }
    ::unlinkat(parent, path, AT_REMOVEDIR);
}

void remove_registered() {
    for (int i = kSlots - 1; i >= 0; --i) {
        const int state = slots[i].state.load(std::memory_order_acquire);
        if (state == 2) ::unlink(slots[i].path);
        else if (state == 3) remove_folder(AT_FDCWD, slots[i].path, 0);
    }
}

void on_signal(int sig) {
    remove_registered();
    ::signal(sig, SIG_DFL);  // die as the signal would have
    ::raise(sig);
}

}  // namespace

int add(const std::string& path, bool folder) {
    if (path.size() >= kMaxPath) throw Error(path.substr(0, 80) + "...: the path is over 4095 bytes");
    std::lock_guard<std::mutex> lock(claim);
    for (int i = 0; i < kSlots; ++i) {
        if (slots[i].state.load() != 0) continue;
        slots[i].state.store(1);
        std::memcpy(slots[i].path, path.c_str(), path.size() + 1);
        slots[i].state.store(folder ? 3 : 2, std::memory_order_release);
        return i;
    }
    throw Error("cannot write " + path + ": too many files being written at once");
}

void forget(int slot) {
    if (slot >= 0 && slot < kSlots) slots[slot].state.store(0, std::memory_order_release);
}

void remove_all_now() {
    // Twice: another thread may have added a file to a folder while it was listed.
    remove_registered();
    remove_registered();
}

int live() {
    int n = 0;
    for (const Slot& s : slots) n += s.state.load() >= 2;
    return n;
}

void install_signal_handlers() {
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction action {};
        action.sa_handler = on_signal;
        sigemptyset(&action.sa_mask);
        // SIGPIPE (a reader that went away: `vitscope … | head -1`) and SIGXFSZ (`ulimit -f`) end the run as
        // their default would, but first remove what it was writing.
        for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ}) ::sigaction(sig, &action, nullptr);
    });
}

}  // namespace vit::temporaries
