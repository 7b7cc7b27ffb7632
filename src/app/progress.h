// Progress of one long computation on standard error, so a researcher sees a
// run that takes minutes move (the data stays alone on standard output).
#pragma once
#include <string>

#include "vit/base/task_control.h"

namespace app {

// A TaskControl whose progress prints "vitscope: WHAT: 40% (36 of 90)" at
// every tenth of the way (and at the end), never more often.
vit::TaskControl stderr_progress(const std::string& what);

}  // namespace app
