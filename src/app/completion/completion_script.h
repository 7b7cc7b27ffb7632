// The bash completion script, made at build time from the lists `vitscope
// --help` reads, so that it offers what the parser takes and nothing else:
// the commands and their options (cli_spec.cpp), the Questions
// (question_list.inc), the Learning lab's tasks (task_list.inc) and dump's
// arrays, filled into scripts/vitscope-completion.bash.in.
#pragma once
#include <string>

namespace app {

// The template with every @NAME@ filled in. Throws vit::Error when the
// template lacks one of them or an option takes a value this file does not
// say how to complete (a new option needs a line in completion_script.cpp).
std::string completion_script(const std::string& template_text);

}  // namespace app
