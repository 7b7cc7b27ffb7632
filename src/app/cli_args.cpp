#include "cli_args.h"

#include <cstdlib>
#include <string>

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
    if (!parse_whole(it->second, v))
        throw vit::Error(name + " expects a whole number, got '" + it->second + "'");
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

CliArgs parse_cli(int argc, char** argv, const std::set<std::string>& flag_names) {
    static const std::set<std::string> commands = {"classify", "attention", "export", "info", "dump", "explain", "tour", "sweep", "lesson", "help"};
    CliArgs args;
    int i = 1;
    if (i < argc && commands.count(argv[i])) args.command = argv[i++];
    for (; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "-o") a = "--output";
        if (a.rfind("--", 0) == 0 && a.size() > 2) {
            if (auto eq = a.find('='); eq != std::string::npos) {
                args.options[a.substr(0, eq)] = a.substr(eq + 1);
            } else if (flag_names.count(a)) {
                args.flags.insert(a);
            } else {
                if (i + 1 >= argc) throw vit::Error(a + " needs a value");
                args.options[a] = argv[++i];
            }
        } else {
            args.positional.push_back(a);
        }
    }
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
    if (comma == std::string::npos || !parse_whole(text.substr(0, comma), r) ||
        !parse_whole(text.substr(comma + 1), c))
        throw vit::Error("--patch expects ROW,COL (e.g. 5,7), got '" + text + "'");
    if (r < 0 || c < 0 || r > 100000 || c > 100000)
        throw vit::Error("--patch " + text + " is out of range");
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
