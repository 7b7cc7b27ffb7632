// The output rule (vit/base/output_file.h) as the command line states it:
// --force allows replacing a file; no input is ever written over: the photos
// (IMAGE, and those a folder or @LIST names, and the list), the comparison
// photo (--compare), the tour, the exercises, the window's script and the
// files of the model (--model or the default). The window's rule is
// session/core/output_rules.h.
#pragma once
#include "app/cli_args.h"
#include "vit/base/output_file.h"

namespace app {

vit::OutputRules cli_output_rules(const CliArgs& args);

// check_output for a command-line option's value (an empty value is refused
// naming the option); returns the path.
std::string checked_output(const CliArgs& args, const std::string& option,
                           vit::OutputKind kind = vit::OutputKind::File);

// Where a table goes: the option's file (checked now, before any work), or
// "-" (standard output) when it is not given. vit::write_output writes either.
std::string table_output(const CliArgs& args, const std::string& option = "--output");

}  // namespace app
