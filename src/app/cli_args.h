// Command-line parsing shared by every vitscope command.
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "vit/forward/forward.h"

namespace app {

struct CliArgs {
    std::string command;                         // "classify", "attention", ... or "" for the window
    std::vector<std::string> positional;         // e.g. the IMAGE
    std::map<std::string, std::string> options;  // "--layer" -> "8"
    std::set<std::string> flags;                 // "--mean-heads", "--quit"

    bool has(const std::string& name) const { return options.count(name) || flags.count(name); }
    std::string get(const std::string& name, const std::string& fallback = "") const;
    // Whole number in [lo, hi]; throws vit::Error naming the option otherwise.
    int get_int(const std::string& name, int lo, int hi) const;
    std::optional<int> get_int_opt(const std::string& name, int lo, int hi) const;
    const std::string& image() const;  // the one positional IMAGE; throws if absent
};

// Strict, against the command's CommandSpec (cli_spec.h): an unknown option,
// one the command does not take, one given twice, a value for a flag, a flag
// without its value or an extra argument throws vit::Error naming it.
// -h/--help anywhere gives command "help" (positional: the command asked
// about); --version/-V first gives "version". -o is --output; "--" ends the
// options; "-" is a positional (standard output where an output is named).
CliArgs parse_cli(int argc, char** argv);

// --model, else vit::default_model_dir ($VITSCOPE_MODEL, else models/<default>).
std::string resolve_model_dir(const CliArgs& args);

// "5,7" -> {5, 7}; throws vit::Error on anything else.
std::pair<int, int> parse_patch(const std::string& text);
// The query token from --patch ROW,COL or --query cls|INDEX, checked against the trace.
int query_token(const CliArgs& args, const vit::Trace& trace);

}  // namespace app
