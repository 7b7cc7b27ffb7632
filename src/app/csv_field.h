// One CSV field of text: quoted when it holds a comma, a quote or a line break
// (Hugging Face labels such as "tench, Tinca tinca"), quotes doubled.
#pragma once
#include <string>

namespace app {

std::string csv_field(const std::string& text);

}  // namespace app
