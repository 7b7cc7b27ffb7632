#include "vit/base/file_system_calls.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#if !defined(__EMSCRIPTEN__)
#include <sys/resource.h>
#include <sys/syscall.h>
#endif

#include <cerrno>
#include <string>

namespace vit::fs_calls {

#if defined(__EMSCRIPTEN__)

int rename_no_replace(const char* from, const char* to) {
    struct stat st {};
    if (::lstat(to, &st) == 0) return EEXIST;
    return ::rename(from, to) == 0 ? 0 : errno;
}

int rename_exchange(const char* a, const char* b) {
    const std::string aside = std::string(a) + ".vitscope-exchange";
    if (::rename(a, aside.c_str()) != 0) return errno;
    if (::rename(b, a) != 0) {
        const int err = errno;
        ::rename(aside.c_str(), a);
        return err;
    }
    return ::rename(aside.c_str(), b) == 0 ? 0 : errno;
}

long read_folder_entries(int fd, char* buffer, std::size_t size) {
    return ::getdents(fd, reinterpret_cast<struct dirent*>(buffer), size);
}

void lower_this_thread_priority(int) {}

#else

int rename_no_replace(const char* from, const char* to) {
    return ::renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0 ? 0 : errno;
}

int rename_exchange(const char* a, const char* b) {
    return ::renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) == 0 ? 0 : errno;
}

long read_folder_entries(int fd, char* buffer, std::size_t size) { return ::syscall(SYS_getdents64, fd, buffer, size); }

void lower_this_thread_priority(int nice) {
    ::setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), nice);
}

#endif

}  // namespace vit::fs_calls
