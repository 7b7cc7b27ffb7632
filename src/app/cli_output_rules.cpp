#include "app/cli_output_rules.h"

#include "app/photo_list.h"

namespace app {

vit::OutputRules cli_output_rules(const CliArgs& args) {
    vit::OutputRules rules;
    rules.force = args.has("--force");
    for (const std::string& photo : args.positional) {
        if (photo.size() > 1 && photo[0] == '@')
            rules.protected_files.push_back({photo.substr(1), "the list of photos being read"});
        else rules.protected_files.push_back({photo, "the photo being read"});
    }
    // The photos a folder or a list names (the command refuses a bad list itself).
    if (!args.positional.empty() && args.command != "" && args.command != "help") try {
            for (const std::string& photo : photo_paths(args))
                rules.protected_files.push_back({photo, "a photo being read"});
        } catch (const vit::Error&) {
        }
    // Every file a command reads: no output may be one of its inputs, even with --force.
    const std::pair<const char*, const char*> inputs[] = {{"--compare", "the comparison photo"},
                                                          {"--tour", "the tour being read"},
                                                          {"--exercises", "the exercises being read"},
                                                          {"--script", "the script being run"}};
    for (const auto& [option, what] : inputs)
        if (args.has(option)) rules.protected_files.push_back({args.get(option), what});
    rules.protected_folders.push_back(resolve_model_dir(args));
    return rules;
}

std::string checked_output(const CliArgs& args, const std::string& option, vit::OutputKind kind) {
    const std::string path = args.get(option);
    if (path.empty()) throw vit::Error("missing " + option + " value");
    vit::check_output(path, cli_output_rules(args), kind);
    return path;
}

std::string table_output(const CliArgs& args, const std::string& option) {
    if (!args.has(option)) return "-";
    return checked_output(args, option);
}

}  // namespace app
