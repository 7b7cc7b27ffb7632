#include "explain_questions.h"

namespace app {

std::vector<ExplainQuestion> why_questions() { return {}; }

}  // namespace app
