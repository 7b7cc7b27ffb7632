// Text placed in an HTML page the command line or the window writes (slides,
// lesson pages, worksheets): &, <, > and " as entities, safe in an element
// or a double-quoted attribute.
#pragma once
#include <string>

namespace app {

std::string html_escaped(const std::string& text);

}  // namespace app
