#include "app/output_rules.h"

#include "app/photo_list.h"

namespace app {

vit::OutputRules output_rules(const CliArgs& args) {
    vit::OutputRules rules;
    rules.force = args.has("--force");
    for (const std::string& photo : args.positional) {
        if (photo.size() > 1 && photo[0] == '@') rules.protected_files.push_back({photo.substr(1), "the list of photos being read"});
        else rules.protected_files.push_back({photo, "the photo being read"});
    }
    // The photos a folder or a list names (the command refuses a bad list itself).
    if (!args.positional.empty() && args.command != "" && args.command != "help") try {
        for (const std::string& photo : photo_paths(args)) rules.protected_files.push_back({photo, "a photo being read"});
    } catch (const vit::Error&) {
    }
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

std::string table_output(const CliArgs& args, const std::string& option) {
    if (!args.has(option)) return "-";
    return checked_output(args, option);
}

}  // namespace app
