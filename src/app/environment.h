// The environment variables vitscope reads, checked once at start: a value
// that is set but wrong is refused as one line (exit 2) before any work,
// instead of being ignored or clamped where it is read.
#pragma once

namespace app {

// Throws vit::Error naming the variable, its value and what it expects.
void check_environment();

}  // namespace app
