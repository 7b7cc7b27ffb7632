// The run's temporary files and folders, in storage a signal handler can read:
// registered when made, forgotten when renamed into place or removed. A
// SIGINT/SIGTERM/SIGHUP/SIGPIPE/SIGXFSZ handler removes what is still registered (async-signal-safe:
// unlink, unlinkat, rmdir and getdents64 only), then dies of the signal.
#pragma once
#include <string>

namespace vit::temporaries {

constexpr size_t kMaxPath = 4096;

// A slot for path (false: a file, true: a folder of files, or of folders of files); throws vit::Error when
// the path is too long or every slot is taken.
int add(const std::string& path, bool folder);
void forget(int slot);
int live();
// Removes every registered temporary now (async-signal-safe: for a handler
// that exits at once, e.g. vitscope train's second Ctrl+C).
void remove_all_now();
void install_signal_handlers();

}  // namespace vit::temporaries
