#include "app/output_rules.h"

namespace app {

vit::OutputRules output_rules(const CliArgs& args) {
    vit::OutputRules rules;
    rules.force = args.has("--force");
    for (const std::string& photo : args.positional) rules.protected_files.push_back({photo, "the photo being read"});
    if (args.has("--compare")) rules.protected_files.push_back({args.get("--compare"), "the comparison photo"});
    if (args.has("--tour")) rules.protected_files.push_back({args.get("--tour"), "the tour being read"});
    rules.protected_folders.push_back(resolve_model_dir(args));
    return rules;
}

std::string checked_output(const CliArgs& args, const std::string& option, vit::OutputKind kind) {
    const std::string path = args.get(option);
    if (path.empty()) throw vit::Error("missing " + option + " value");
    vit::check_output(path, output_rules(args), kind);
    return path;
}

}  // namespace app
