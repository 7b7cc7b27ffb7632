// The run's temporary files and folders, in storage a signal handler can read:
// registered when made, forgotten when renamed into place or removed. A
// SIGINT/SIGTERM handler removes what is still registered (async-signal-safe:
// unlink, unlinkat, rmdir and getdents64 only), then dies of the signal.
#pragma once
#include <string>

namespace vit::temporaries {

constexpr size_t kMaxPath = 4096;

// A slot for path (false: a file, true: a flat folder); throws vit::Error when
// the path is too long or every slot is taken.
int add(const std::string& path, bool folder);
void forget(int slot);
int live();
void install_signal_handlers();

}  // namespace vit::temporaries
