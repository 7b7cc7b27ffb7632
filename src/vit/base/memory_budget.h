// The most memory vitscope lets a model or a trace take, so a too-large input
// is refused with a message instead of the process being killed.
#pragma once
#include <cstddef>
#include <string>

namespace vit {

// 2 GiB, or $VITSCOPE_MEMORY_BUDGET in bytes with an optional K, M or G
// suffix ("512M"). Throws vit::Error on a malformed value.
size_t default_memory_budget();

// "1.50 GiB", for messages.
std::string gib(size_t bytes);

}  // namespace vit
