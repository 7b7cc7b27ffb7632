// One error type for everything the vit library refuses: the message is a
// single line a person can act on; the command line prints it after
// "vitscope: error: " and the window shows it in its status bar. Whatever the
// message quotes (a file's bytes, a path) is made printable here, once for
// every place that shows it, and a huge one is cut to an excerpt.
#pragma once
#include <stdexcept>
#include <string>

#include "vit/base/printable.h"

namespace vit {

constexpr size_t kMaxErrorBytes = 2048;

struct Error : std::runtime_error {
    explicit Error(const std::string& message) : std::runtime_error(printable_excerpt(message, kMaxErrorBytes)) {}
};

}  // namespace vit
