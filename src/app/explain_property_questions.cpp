#include "explain_questions.h"

namespace app {

std::vector<ExplainQuestion> property_questions() { return {}; }

}  // namespace app
