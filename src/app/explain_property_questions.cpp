// The pages on what attention is, as `vitscope explain --csv` writes them:
// global, dynamic, permutation, position, cross, mlp. The numbers come from
// src/vit; here only the selection is read and the columns formatted (the
// contracts are in docs/command-line-and-python.md).
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <vector>

#include "app/csv_field.h"
#include "app/explain_questions.h"
#include "vit/analysis/cross.h"
#include "vit/analysis/divergence.h"
#include "vit/analysis/global.h"
#include "vit/analysis/token_norms.h"
#include "vit/analysis/mlp.h"
#include "vit/analysis/permutation.h"
#include "vit/analysis/position.h"
#include "vit/base/error.h"
#include "vit/forward/classes.h"

namespace app {
namespace {

std::string number(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", v);
    return text;
}

std::string number(int v) { return std::to_string(v); }

// One CSV line from its fields (appended one by one: GCC 12 warns wrongly,
// -Wrestrict, about chains of std::string + on temporaries).
std::string line(std::initializer_list<std::string> fields) {
    std::string out;
    bool first = true;
    for (const std::string& f : fields) {
        if (!first) out += ',';
        out += f;
        first = false;
    }
    out += '\n';
    return out;
}

int patch_query(const ExplainInput& in, const char* question) {
    const int query = query_token(in.args, in.photo.trace);
    if (!in.photo.trace.is_patch(query))
        throw vit::Error(std::string("--question ") + question + " needs a patch query (--patch ROW,COL), not token " +
                         std::to_string(query));
    return query;
}

const vit::Trace& compare_trace(const ExplainInput& in, const char* question) {
    if (!in.compare) throw vit::Error(std::string("--question ") + question + " needs --compare IMAGE2");
    return in.compare->trace;
}

}  // namespace

std::string explain_global(const ExplainInput& in) {
    const vit::Trace& t = in.photo.trace;
    const int query = patch_query(in, "global");
    std::string out;
    for (int l = 0; l < static_cast<int>(t.layers.size()); ++l) {
        // Beside the bands, the weight beyond 3 patches with the high-norm tokens entering the layer left
        // out, and theirs (vit/analysis/high_norm_distance.h: the corners, late in the default model).
        const std::vector<int> high = vit::high_norm_entering(t, l);
        for (int h = 0; h < static_cast<int>(t.layers[l].heads.size()); ++h) {
            const vit::DistanceMass m = vit::distance_mass(t, l, h, query);
            const auto& a = t.layers[l].heads[h].attn;
            double beyond = 0, on_high = 0;
            for (int j = t.prefix; j < t.tokens; ++j) {
                const bool is_high = std::find(high.begin(), high.end(), j) != high.end();
                if (is_high) on_high += a(query, j);
                else if (std::max(std::abs(t.row_of(j) - t.row_of(query)), std::abs(t.col_of(j) - t.col_of(query))) > 3)
                    beyond += a(query, j);
            }
            out += line({number(l), number(h), number(m.band[0]), number(m.band[1]), number(m.band[2]),
                         number(m.band[3]), number(m.band[4]), number(m.far_quarter), number(beyond), number(on_high)});
        }
    }
    return out;
}

std::string explain_dynamic(const ExplainInput& in) {
    const vit::Trace &a = in.photo.trace, &b = compare_trace(in, "dynamic");
    const int query = query_token(in.args, a);
    std::string out;
    for (int l = 0; l < static_cast<int>(a.layers.size()); ++l)
        for (int h = 0; h < static_cast<int>(a.layers[l].heads.size()); ++h)
            out += line({number(l), number(h), number(vit::attention_jsd(a, b, l, h, query))});
    return out;
}

std::string explain_permutation(const ExplainInput& in) {
    const int seed = in.args.get_int_opt("--seed", 0, INT_MAX).value_or(0);
    vit::TraceOptions options;  // the comparison needs the weights and the final states only
    options.keep_qkv = false;
    options.keep_states = false;
    const Pipeline& p = in.photo;
    const vit::PermutationExperiment e =
        vit::run_permutation_experiment(p.model, p.input, p.trace, static_cast<uint32_t>(seed), options);
    const auto top1 = [&](const vit::Trace& t) {
        const auto top = vit::top_classes(p.model, t, 1);
        return top.empty() ? std::string() : csv_field(top[0].label);
    };
    return line(
        {number(e.with_pos.max()), number(e.without_pos.max()), top1(p.trace), top1(e.runs.original_without_pos)});
}

std::string explain_position(const ExplainInput& in) {
    const vit::Trace& t = in.photo.trace;
    const int query = patch_query(in, "position");
    const vit::Vec cosine = vit::position_similarity_row(in.photo.model, t.grid, t.row_of(query), t.col_of(query));
    std::string out;
    for (int r = 0; r < t.grid; ++r)
        for (int c = 0; c < t.grid; ++c) out += line({number(r), number(c), number(cosine[r * t.grid + c])});
    return out;
}

std::string explain_cross(const ExplainInput& in) {
    const vit::Trace &a = in.photo.trace, &b = compare_trace(in, "cross");
    const int layer = in.args.get_int("--layer", 0, in.photo.model.depth - 1);
    const int query = query_token(in.args, a);
    // --mean-heads: each column's mean over the heads, as `attention --mean-heads` gives it.
    const std::vector<int> heads = chosen_heads(in);
    vit::CrossAttentionRow r = vit::cross_attention_row(a, b, layer, heads[0], query);
    for (size_t i = 1; i < heads.size(); ++i) {
        const vit::CrossAttentionRow more = vit::cross_attention_row(a, b, layer, heads[i], query);
        r.raw += more.raw, r.scaled += more.scaled, r.weights += more.weights;
    }
    const double n = static_cast<double>(heads.size());
    std::string out;
    for (int j = 0; j < b.tokens; ++j)
        out += line({number(j), number(b.row_of(j)), number(b.col_of(j)), number(r.raw[j] / n), number(r.scaled[j] / n),
                     number(r.weights[j] / n)});
    return out;
}

std::string explain_mlp(const ExplainInput& in) {
    const int layer = in.args.get_int("--layer", 0, in.photo.model.depth - 1);
    const vit::TokenPath path =
        vit::token_path(in.photo.model, in.photo.trace, layer, query_token(in.args, in.photo.trace));
    std::string out;
    for (const vit::PartNorm& part : vit::token_path_norms(path)) out += line({part.part, number(part.norm)});
    out += line({"mlp_alone_max_abs_diff", number(path.mlp_alone_max_abs_diff)});
    out += line({"mlp_others_zeroed_max_abs_diff", number(path.mlp_others_zeroed_max_abs_diff)});
    out += line({"attention_others_zeroed_max_abs_diff", number(path.attention_others_zeroed_max_abs_diff)});
    return out;
}

// One head's whole matrix: a line per (query, key), queries in token order.
std::string explain_matrix(const ExplainInput& in) {
    const int layer = in.args.get_int("--layer", 0, in.photo.model.depth - 1);
    // --mean-heads: the mean of the heads' matrices (the map the window's M shows, for every query).
    const std::vector<int> heads = chosen_heads(in);
    vit::Mat a = in.photo.trace.layers[layer].heads[heads[0]].attn;
    for (size_t i = 1; i < heads.size(); ++i) a += in.photo.trace.layers[layer].heads[heads[i]].attn;
    if (heads.size() > 1) a /= static_cast<float>(heads.size());
    std::string out;
    out.reserve(static_cast<size_t>(a.size()) * 20);
    for (int q = 0; q < a.rows(); ++q)
        for (int k = 0; k < a.cols(); ++k) out += line({number(q), number(k), number(double(a(q, k)))});
    return out;
}

}  // namespace app
