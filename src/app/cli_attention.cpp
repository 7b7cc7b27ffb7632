// vitscope attention IMAGE --layer L --head H (--patch ROW,COL | --query cls|INDEX):
// CSV key,row,col,score,scaled,weight, one line per key token in token order.
#include <cstdio>
#include <string>

#include "commands.h"
#include "pipeline.h"
#include "vit/analysis/attention_rows.h"

namespace app {

int cmd_attention(const CliArgs& args) {
    Pipeline p = run_pipeline(args);
    const int layer = args.get_int("--layer", 0, p.model.depth - 1);
    const int head = args.get_int("--head", 0, p.model.heads - 1);
    const int query = query_token(args, p.trace);
    const vit::Vec raw = vit::raw_scores(p.trace, layer, head, query);
    const vit::Vec scaled = vit::scaled_scores(p.trace, layer, head, query);
    const vit::Vec weight = vit::attention_row(p.trace, layer, head, query);
    std::string out = "key,row,col,score,scaled,weight\n";
    char line[160];
    for (int j = 0; j < p.trace.tokens; ++j) {
        std::snprintf(line, sizeof line, "%d,%d,%d,%.9g,%.9g,%.9g\n", j, p.trace.row_of(j), p.trace.col_of(j),
                      raw[j], scaled[j], weight[j]);
        out += line;
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

}  // namespace app
