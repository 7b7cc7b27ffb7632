// vitscope attention IMAGE... --layer L (--head H | --mean-heads) (--patch ROW,COL | --query cls|INDEX)
// [-o FILE | --csv FILE]: CSV key,row,col,score,scaled,weight, one line per key
// token in token order (--mean-heads: each column's mean over the heads);
// several photos: a first column `image`.
#include <cstdio>
#include <string>

#include "app/subcommands.h"
#include "app/cli_output_rules.h"
#include "app/csv_field.h"
#include "app/photo_list.h"
#include "app/pipeline.h"
#include "vit/analysis/attention_rows.h"
#include "vit/base/error.h"

namespace app {
namespace {

struct Row {
    vit::Vec raw, scaled, weight;
};

Row head_row(const vit::Trace& t, int layer, int head, int query) {
    return {vit::raw_scores(t, layer, head, query), vit::scaled_scores(t, layer, head, query),
            vit::attention_row(t, layer, head, query)};
}

// The mean over the heads, in head order.
Row mean_row(const vit::Trace& t, int layer, int heads, int query) {
    Row sum = head_row(t, layer, 0, query);
    for (int h = 1; h < heads; ++h) {
        const Row r = head_row(t, layer, h, query);
        sum.raw += r.raw;
        sum.scaled += r.scaled;
        sum.weight += r.weight;
    }
    const float n = static_cast<float>(heads);
    return {sum.raw / n, sum.scaled / n, sum.weight / n};
}

}  // namespace

int cmd_attention(const CliArgs& args) {
    const bool mean = args.has("--mean-heads");
    if (mean == args.has("--head")) throw vit::Error("give exactly one of --head H or --mean-heads");
    // Refused once, before any photo, rather than once per photo.
    if (!args.has("--layer")) throw vit::Error("missing --layer");
    if (args.has("--patch") == args.has("--query"))
        throw vit::Error("give exactly one of --patch ROW,COL or --query cls|INDEX");
    if (args.has("--patch")) parse_patch(args.get("--patch"));  // syntax now; range once the grid is known
    const std::string out = table_output(args);
    const bool several = photo_paths(args).size() > 1;
    std::string table = several ? "image,key,row,col,score,scaled,weight\n" : "key,row,col,score,scaled,weight\n";
    const int status = for_each_photo(
        args, {},
        [&](Pipeline& p, const std::string& path) {
            const int layer = args.get_int("--layer", 0, p.model.depth - 1);
            const int query = query_token(args, p.trace);
            const Row row = mean ? mean_row(p.trace, layer, p.model.heads, query)
                                 : head_row(p.trace, layer, args.get_int("--head", 0, p.model.heads - 1), query);
            std::string rows;
            char line[160];
            for (int j = 0; j < p.trace.tokens; ++j) {
                std::snprintf(line, sizeof line, "%d,%d,%d,%.9g,%.9g,%.9g\n", j, p.trace.row_of(j), p.trace.col_of(j),
                              row.raw[j], row.scaled[j], row.weight[j]);
                rows += line;
            }
            table += several ? prefix_lines(rows, csv_field(path), ',') : rows;
        },
        layer_and_head_check(args));
    vit::write_output(out, table, cli_output_rules(args));
    return status;
}

}  // namespace app
