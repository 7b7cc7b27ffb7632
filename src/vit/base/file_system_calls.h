// The system calls whose form differs between the platforms vitscope builds
// for (files, and one for threads), behind one name each: Linux's (glibc) and the browser build's
// (emscripten's musl over its in-memory file system, where one process is
// all there is, so "atomically" needs no help from the kernel).
#pragma once
#include <cstddef>

namespace vit::fs_calls {

// rename(from, to) unless `to` exists (Linux: renameat2 RENAME_NOREPLACE).
// Returns 0, or the errno; EINVAL or ENOSYS where the file system cannot.
int rename_no_replace(const char* from, const char* to);

// Swaps the two names (Linux: renameat2 RENAME_EXCHANGE). Returns 0 or the errno.
int rename_exchange(const char* a, const char* b);

// Reads a folder's next entries as struct dirent64 records into buffer
// (getdents64; async-signal-safe). Returns the bytes read, 0 at the end, < 0 on error.
long read_folder_entries(int fd, char* buffer, std::size_t size);

// Lowers the calling thread's priority by `nice` steps (Linux: nice applies
// per thread); nothing where threads have no priority (the browser's workers).
void lower_this_thread_priority(int nice);

}  // namespace vit::fs_calls
