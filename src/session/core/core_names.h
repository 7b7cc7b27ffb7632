// The core room's values as scripts, the state file and file names spell them.
#pragma once
#include <optional>
#include <string>

#include "session/core/core_state.h"

namespace session {

// "math", "whatifs", "questions": the tab as scripts and the state file name it.
const char* tab_name(CoreRoom::Tab tab);
std::optional<CoreRoom::Tab> tab_from_name(const std::string& name);
// "dark" or "light" (state file, settings, the script's verb); nullopt for any other name.
const char* theme_name(CoreRoom::Theme theme);
std::optional<CoreRoom::Theme> theme_from_name(const std::string& name);

// Short description of the selection for file names: "dog_L8_H1_r5c7".
std::string selection_slug(const CoreRoom& s);

}  // namespace session
