#include "app/commands/cli_grade.h"

#include <cstdio>
#include <string>
#include <vector>

#include "app/cli_output_rules.h"
#include "session/homework/handin.h"
#include "vit/base/error.h"
#include "vit/base/output_file.h"
#include "vit/base/printable.h"
#include "vit/base/read_file.h"

namespace app {

int cmd_grade(const CliArgs& args) {
    constexpr uint64_t kMaxCsv = 16u << 20;
    const std::string key_path = args.get("--grade");
    if (args.positional.empty())
        throw vit::Error(
            "--grade KEY.csv needs the hand-ins after it: vitscope exercises --grade KEY.csv HANDIN.csv...");
    const std::string out = args.has("--output") ? args.get("--output") : "-";
    if (out != "-") vit::check_output(out, cli_output_rules(args));
    const auto key = session::parse_key(vit::read_whole_file(key_path, kMaxCsv, "an answer key"), key_path);
    std::vector<session::Grade> grades;
    for (const std::string& path : args.positional) {
        const session::Handin h = session::parse_handin(vit::read_whole_file(path, kMaxCsv, "a hand-in"), path);
        grades.push_back(session::grade_handin(h, key));
        const session::Grade& g = grades.back();
        if (!g.code_ok)
            std::fprintf(stderr, "%s: the verification code does not match: edited after the page wrote it\n",
                         vit::printable(path).c_str());
        for (const std::string& p : g.problems)
            std::fprintf(stderr, "%s: %s\n", vit::printable(path).c_str(), p.c_str());
    }
    vit::write_output(out, session::grades_csv(grades, key), cli_output_rules(args));
    if (out != "-")
        std::fprintf(stderr, "%s: the grades of %zu hand-ins\n", vit::printable(out).c_str(), grades.size());
    return 0;
}

}  // namespace app
