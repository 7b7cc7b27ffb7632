// The most memory vitscope lets a model or a trace take, so a too-large input
// is refused with a message instead of the process being killed.
#pragma once
#include <cstddef>
#include <string>

namespace vit {

// A budget below this cannot hold the smallest model; above it no machine has the memory.
inline constexpr double kMinMemoryBudget = 16.0 * (1 << 20), kMaxMemoryBudget = 64.0 * (1ULL << 40);

// Bytes with an optional K, M, G or T suffix ("512M"), from 16M to 64T. Throws
// vit::Error naming the value when malformed or out of that range.
size_t parse_memory_budget(const std::string& text);

// 2 GiB, or parse_memory_budget($VITSCOPE_MEMORY_BUDGET).
size_t default_memory_budget();

// "1.50 GiB", "22.4 MiB", "512 bytes": three significant digits, for messages.
std::string byte_size(size_t bytes);

}  // namespace vit
