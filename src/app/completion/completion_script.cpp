#include "app/completion/completion_script.h"

#include <map>
#include <set>
#include <vector>

#include "app/cli_spec.h"
#include "app/dump_arrays.h"
#include "vit/analysis/questions.h"
#include "vit/base/error.h"
#include "vit/train/tasks.h"

namespace app {
namespace {

// What the completion offers after an option that takes a value: folders,
// files, a list of words (the template's own case for that option), or
// nothing (a number, a patch, a size).
enum class Value { Folder, File, Words, Nothing };
const std::map<std::string, Value>& value_kinds() {
    static const std::map<std::string, Value> kinds = {
        {"--model", Value::Folder},    {"--frames", Value::Folder},        {"--output", Value::File},
        {"--csv", Value::File},        {"--claims", Value::File},          {"--screenshot", Value::File},
        {"--state-file", Value::File}, {"--frame-stats", Value::File},     {"--script", Value::File},
        {"--tour", Value::File},       {"--compare", Value::File},         {"--exercises", Value::File},
        {"--key", Value::File},        {"--check-gradients", Value::File}, {"--question", Value::Words},
        {"--colormap", Value::Words},  {"--query", Value::Words},          {"--task", Value::Words},
        {"--arrays", Value::Words},    {"--paper", Value::Words},          {"--grade", Value::File},
        {"--students", Value::File},   {"--variants", Value::Nothing},     {"--moodle", Value::File},
        {"--gift", Value::File},       {"--layer", Value::Nothing},        {"--head", Value::Nothing},
        {"--top", Value::Nothing},     {"--size", Value::Nothing},         {"--patch", Value::Nothing},
        {"--select", Value::Nothing},  {"--seed", Value::Nothing},         {"--class", Value::Nothing},
        {"--delay", Value::Nothing},   {"--frame-size", Value::Nothing},   {"--path", Value::Nothing},
        {"--sizes", Value::Nothing},   {"--window-size", Value::Nothing},  {"--ui-scale", Value::Nothing},
        {"--steps", Value::Nothing},   {"--threads", Value::Nothing},      {"--lr", Value::Nothing},
        {"--sample", Value::Nothing},
    };
    return kinds;
}

// As the command line spells it: the parser reads -o as --output.
std::string spelled(const std::string& option) { return option == "--output" ? "-o" : option; }

std::string joined(const std::vector<std::string>& words, const std::string& separator) {
    std::string out;
    for (const std::string& w : words) out.append(out.empty() ? "" : separator).append(w);
    return out;
}

// Every option that takes a value, in any command (aliases too: --csv).
std::set<std::string> value_options() {
    std::set<std::string> out;
    for (const CommandSpec& s : command_specs()) {
        out.insert(s.options.begin(), s.options.end());
        for (const auto& [alias, option] : s.aliases) out.insert(alias);
    }
    return out;
}

// "--model|--frames": the options of one kind, as a bash case pattern.
std::string pattern(Value kind) {
    std::vector<std::string> names;
    for (const std::string& o : value_options())
        if (value_kinds().at(o) == kind) names.push_back(spelled(o));
    return joined(names, "|");
}

// One case line per command: the flags it offers after "-".
std::string command_flags() {
    std::string out;
    std::vector<std::string> silent;  // commands that take no option (help, version)
    for (const CommandSpec& s : command_specs()) {
        std::set<std::string> offered;
        for (const std::string& o : s.options) offered.insert(spelled(o));
        for (const std::string& f : s.flags) offered.insert(f);
        for (const auto& [alias, option] : s.aliases) offered.insert(alias);
        if (offered.empty()) {
            silent.push_back(s.name);
            continue;
        }
        offered.insert("--help");
        const std::string label = s.name.empty() ? "\"\"" : s.name;
        out.append("        ")
            .append(label)
            .append(") flags=\"")
            .append(joined({offered.begin(), offered.end()}, " "))
            .append("\" ;;\n");
    }
    if (!silent.empty()) out.append("        ").append(joined(silent, "|")).append(") return ;;\n");
    out.pop_back();  // the template's line ends it
    return out;
}

void fill(std::string& text, const std::string& name, const std::string& value) {
    const std::string key = "@" + name + "@";
    const size_t at = text.find(key);
    if (at == std::string::npos) throw vit::Error("the completion template has no " + key);
    text.replace(at, key.size(), value);
}

}  // namespace

std::string completion_script(const std::string& template_text) {
    for (const std::string& o : value_options()) {
        const auto kind = value_kinds().find(o);
        if (kind == value_kinds().end())
            throw vit::Error(o + " takes a value: say in src/app/completion/completion_script.cpp what completes it");
        if (kind->second == Value::Words && template_text.find("        " + o + ")\n") == std::string::npos)
            throw vit::Error(o + " completes a list of words, but the completion template has no case for it");
    }
    std::vector<std::string> commands, questions;
    for (const CommandSpec& s : command_specs())
        if (!s.name.empty()) commands.push_back(s.name);
    for (const vit::QuestionPage& q : vit::all_questions()) questions.push_back(q.name);

    std::string text = template_text;
    fill(text, "COMMANDS", joined(commands, " "));
    fill(text, "DIR_OPTIONS", pattern(Value::Folder));
    fill(text, "FILE_OPTIONS", pattern(Value::File));
    fill(text, "QUESTIONS", joined(questions, " "));
    fill(text, "TASKS", vit::train::task_names(" "));
    fill(text, "ARRAYS", joined(all_dump_array_names(), " "));
    fill(text, "PLAIN_OPTIONS", pattern(Value::Nothing));
    fill(text, "COMMAND_FLAGS", command_flags());
    // A placeholder left (@NAME@; the template's extglob patterns are @(...)).
    for (size_t at = text.find('@'); at != std::string::npos; at = text.find('@', at + 1)) {
        const size_t end = text.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ_", at + 1);
        if (end != std::string::npos && end > at + 1 && text[end] == '@')
            throw vit::Error("the completion template holds " + text.substr(at, end + 1 - at) +
                             ", which nothing fills");
    }
    return text;
}

}  // namespace app
