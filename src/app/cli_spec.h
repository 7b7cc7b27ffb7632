// What each vitscope subcommand takes: its usage text, the options that take
// a value, the flags that take none, and how many positional arguments. The
// parser (cli_args.h) refuses anything a command does not list.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

namespace app {

struct CommandSpec {
    std::string name;                                 // "" is the window
    std::string usage;                                // printed by `vitscope NAME --help`
    std::set<std::string> options = {};               // take a value: "--layer"
    std::set<std::string> flags = {};                 // take none: "--force"
    std::map<std::string, std::string> aliases = {};  // another spelling -> the option it means
    int min_positional = 0;
    int max_positional = 0;            // -1: any number (several photos)
    std::string positional_name = {};  // "IMAGE", for "missing IMAGE"
};

// Every command, the window ("") first.
const std::vector<CommandSpec>& command_specs();
// nullptr for a word that is no command.
const CommandSpec* find_command_spec(const std::string& name);
// `vitscope --help`: every command's usage.
std::string overall_usage();

}  // namespace app
