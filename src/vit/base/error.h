// One error type for everything the vit library refuses: the message is a
// single line a person can act on; the command line prints it after
// "vitscope: error: " and the window shows it in its status bar.
#pragma once
#include <stdexcept>
#include <string>

namespace vit {

struct Error : std::runtime_error {
    explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace vit
