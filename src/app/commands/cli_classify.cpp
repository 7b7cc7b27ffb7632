// vitscope classify IMAGE... [--top K] [-o FILE | --csv FILE]: rank<TAB>probability<TAB>label;
// several photos: a header line and a first column `image`.
#include <cstdio>
#include <string>
#include <vector>

#include "app/subcommands.h"
#include "app/cli_output_rules.h"
#include "app/photo_list.h"
#include "app/pipeline.h"
#include "vit/base/error.h"
#include "vit/forward/classes.h"

namespace app {

int cmd_classify(const CliArgs& args) {
    const int top = args.get_int_opt("--top", 1, 100000).value_or(5);
    const std::string out = table_output(args);
    const bool several = photo_paths(args).size() > 1;
    std::string table = several ? "image\trank\tprobability\tlabel\n" : "";
    vit::TraceOptions plain{false, false, false};
    const int status = for_each_photo(args, plain, [&](Pipeline& p, const std::string& path) {
        if (p.trace.logits.size() == 0) throw vit::Error("this model has no classifier head");
        const std::vector<vit::ClassScore> best = vit::top_classes(p.model, p.trace, top);
        std::string rows;
        char line[64];
        for (size_t rank = 0; rank < best.size(); ++rank) {
            std::snprintf(line, sizeof line, "%zu\t%.6f\t", rank + 1, best[rank].probability);
            rows += line + best[rank].label + "\n";
        }
        table += several ? prefix_lines(rows, path, '\t') : rows;
    });
    vit::write_output(out, table, cli_output_rules(args));
    return status;
}

}  // namespace app
