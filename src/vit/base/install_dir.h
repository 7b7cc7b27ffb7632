// Where an installed vitscope keeps its resources: share/vitscope beside the
// running executable's bin/ (cmake --install). A copy run from the build
// folder has none and reads the source tree it was built from instead.
#pragma once
#include <string>

namespace vit {

// <exe>/../share/vitscope when that folder exists, else empty. Resolved from
// /proc/self/exe, so it holds wherever the prefix was moved and whatever the
// working directory is.
std::string installed_share_dir();

// The installed copy's <share>/sub when installed, else source_fallback: an
// installed copy never falls back to the source tree.
std::string resource_dir(const std::string& sub, const std::string& source_fallback);

}  // namespace vit
