#include "app/cli_args.h"

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "app/cli_spec.h"

#include "vit/base/default_model.h"
#include "vit/base/error.h"

namespace app {
namespace {

bool parse_whole(const std::string& text, long& out) {
    if (text.empty()) return false;
    char* end = nullptr;
    errno = 0;
    out = std::strtol(text.c_str(), &end, 10);
    return errno == 0 && *end == '\0';
}

}  // namespace

std::string CliArgs::get(const std::string& name, const std::string& fallback) const {
    auto it = options.find(name);
    return it == options.end() ? fallback : it->second;
}

std::optional<int> CliArgs::get_int_opt(const std::string& name, int lo, int hi) const {
    auto it = options.find(name);
    if (it == options.end()) return std::nullopt;
    long v = 0;
    if (!parse_whole(it->second, v)) throw vit::Error(name + " expects a whole number, got '" + it->second + "'");
    if (v < lo || v > hi)
        throw vit::Error(name + " " + it->second + " is out of range (" + std::to_string(lo) + ".." +
                         std::to_string(hi) + ")");
    return static_cast<int>(v);
}

int CliArgs::get_int(const std::string& name, int lo, int hi) const {
    auto v = get_int_opt(name, lo, hi);
    if (!v) throw vit::Error("missing " + name);
    return *v;
}

const std::string& CliArgs::image() const {
    if (positional.empty()) throw vit::Error("missing IMAGE (see vitscope --help)");
    return positional.front();
}

CliArgs parse_cli(int argc, char** argv) {
    CliArgs args;
    int i = 1;
    const std::string first = argc > 1 ? argv[1] : "";
    if (first == "--version" || first == "-V") {
        if (argc > 2) throw vit::Error("vitscope: unexpected argument '" + std::string(argv[2]) + "' after " + first);
        args.command = "version";
        return args;
    }
    if (first != "" && first != "-" && find_command_spec(first)) args.command = argv[i++];
    const CommandSpec& spec = *find_command_spec(args.command);
    const std::string who = args.command.empty() ? "vitscope" : args.command;
    const std::string see = " (see vitscope " + (args.command.empty() ? std::string() : args.command + " ") + "--help)";
    // -h/--help anywhere before "--" asks for this command's usage, whatever else is given.
    for (int j = i; j < argc && std::string(argv[j]) != "--"; ++j)
        if (std::string(argv[j]) == "--help" || std::string(argv[j]) == "-h") {
            CliArgs help;
            help.command = "help";
            if (!args.command.empty() && args.command != "help") help.positional.push_back(args.command);
            return help;
        }
    const auto known_elsewhere = [](const std::string& name) {
        for (const CommandSpec& s : command_specs())
            if (s.options.count(name) || s.flags.count(name) || s.aliases.count(name)) return true;
        return false;
    };
    const auto refuse_unknown = [&](const std::string& name) {
        if (known_elsewhere(name)) throw vit::Error(who + " does not take " + name + see);
        throw vit::Error(who + ": unknown option " + name + see);
    };
    const auto canonical = [&](const std::string& name) {
        auto alias = spec.aliases.find(name);
        return alias == spec.aliases.end() ? name : alias->second;
    };
    std::set<std::string> given;  // each option once: a second value would silently win
    const auto once = [&](const std::string& spelled, const std::string& name) {
        if (!given.insert(name).second) throw vit::Error(who + ": " + spelled + " given twice" + see);
    };
    bool options_end = false;
    for (; i < argc; ++i) {
        std::string a = argv[i];
        if (options_end || a == "-" || a.empty() || a[0] != '-') {
            args.positional.push_back(a);
            continue;
        }
        if (a == "--") {
            options_end = true;
            continue;
        }
        const bool short_o = a == "-o";
        if (short_o) a = "--output";
        else if (a.rfind("--", 0) != 0) refuse_unknown(a);  // no other short options
        std::string value;
        bool has_value = false;
        if (auto eq = a.find('='); eq != std::string::npos) {
            value = a.substr(eq + 1);
            a = a.substr(0, eq);
            has_value = true;
        }
        const std::string spelled = short_o ? "-o" : a;
        const std::string name = canonical(a);
        if (spec.flags.count(name)) {
            if (has_value) throw vit::Error(who + ": " + a + " takes no value" + see);
            once(spelled, name);
            args.flags.insert(name);
        } else if (spec.options.count(name)) {
            if (!has_value) {
                const bool next_is_option =
                    i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) == 0 && std::string(argv[i + 1]).size() > 2;
                if (i + 1 >= argc || next_is_option) throw vit::Error(who + ": " + spelled + " needs a value" + see);
                value = argv[++i];
            }
            once(spelled, name);
            args.options[name] = value;
        } else {
            refuse_unknown(a);
        }
    }
    const int count = static_cast<int>(args.positional.size());
    if (args.command.empty() && count >= 1) {
        // "vitscope clasify dog.jpg": a misspelt command, not a photo that does not exist.
        const std::string& word = args.positional.front();
        std::error_code ec;
        if (word.find_first_of("./") == std::string::npos && !std::filesystem::exists(word, ec))
            throw vit::Error("unknown command '" + word + "' (see vitscope --help)");
    }
    if (spec.max_positional >= 0 && count > spec.max_positional)
        throw vit::Error(who + ": unexpected argument '" + args.positional[spec.max_positional] + "'" + see);
    if (count < spec.min_positional) throw vit::Error(who + ": missing " + spec.positional_name + see);
    if (args.command == "help" && count == 1 && !find_command_spec(args.positional.front()))
        throw vit::Error("help: unknown command '" + args.positional.front() + "' (see vitscope --help)");
    return args;
}

std::string resolve_model_dir(const CliArgs& args) {
    if (args.options.count("--model")) return args.get("--model");
#ifdef VITSCOPE_SOURCE_DIR
    return vit::default_model_dir(VITSCOPE_SOURCE_DIR);
#else
    return vit::default_model_dir("");
#endif
}

std::pair<int, int> parse_patch(const std::string& text) {
    const auto comma = text.find(',');
    long r = 0, c = 0;
    if (comma == std::string::npos || !parse_whole(text.substr(0, comma), r) || !parse_whole(text.substr(comma + 1), c))
        throw vit::Error("--patch expects ROW,COL (e.g. 5,7), got '" + text + "'");
    if (r < 0 || c < 0 || r > 100000 || c > 100000) throw vit::Error("--patch " + text + " is out of range");
    return {static_cast<int>(r), static_cast<int>(c)};
}

int query_token(const CliArgs& args, const vit::Trace& trace) {
    const bool by_patch = args.options.count("--patch"), by_query = args.options.count("--query");
    if (by_patch == by_query) throw vit::Error("give exactly one of --patch ROW,COL or --query cls|INDEX");
    if (by_patch) {
        auto [r, c] = parse_patch(args.get("--patch"));
        if (r >= trace.grid || c >= trace.grid)
            throw vit::Error("--patch " + args.get("--patch") + " is outside the " + std::to_string(trace.grid) +
                             " x " + std::to_string(trace.grid) + " patch grid (rows and columns 0.." +
                             std::to_string(trace.grid - 1) + ")");
        return trace.token_of(r, c);
    }
    const std::string q = args.get("--query");
    if (q == "cls" || q == "CLS") return 0;
    return args.get_int("--query", 0, trace.tokens - 1);
}

}  // namespace app
