// Where a command writes its PNG figure (-o OUT.png), checked before any work
// so a refusal costs nothing and touches nothing: `vitscope export` and
// `vitscope explain -o` follow the same rules.
#pragma once
#include <string>

#include "app/cli_args.h"

namespace app {

// The -o path; throws vit::Error when it is missing, not *EXTENSION, or
// refused by the output rule (app/cli_output_rules.h): a
// folder, an existing file without --force, a protected file, a missing folder.
std::string figure_output_path(const CliArgs& args, const std::string& extension = ".png");

}  // namespace app
