#include "session/lab/lab_numbers.h"

#include <cmath>
#include <cstdio>

#include "session/lab/lab_view.h"
#include "vit/base/error.h"

namespace session {

const char* lab_query_name(int query) {
    return query == kQueryCls ? "cls" : query == kQuerySquare2 ? "square2" : "square1";
}

int lab_query_token(int query, int square1, int square2) {
    if (query == kQueryCls) return 0;
    return query == kQuerySquare2 ? square2 : square1;
}

LabShares shares_of(const vit::Trace& t, int layer, int head, int query_token, int square1, int square2) {
    LabShares s;
    const vit::Mat& a = t.layers.at(layer).heads.at(head).attn;
    for (int j = 0; j < t.tokens; ++j) {
        const double w = a(query_token, j);
        if (j == square1) s.square1 += w;
        else if (j == square2) s.square2 += w;
        else if (t.is_patch(j)) s.background += w;
        else s.cls += w;  // the class token (and any other prefix token)
    }
    return s;
}

double task_weight(const LabShares& s, int query) {
    if (query == kQueryCls) return s.square1 + s.square2;
    return query == kQuerySquare2 ? s.square1 : s.square2;
}

double even_task_share(int query, int tokens, int patches) { return query == kQueryCls ? 2.0 / patches : 1.0 / tokens; }

LabShareTable share_table(const vit::Trace& t, int square1, int square2) {
    LabShareTable table;
    table.layers = static_cast<int>(t.layers.size());
    table.heads = table.layers ? static_cast<int>(t.layers[0].heads.size()) : 0;
    for (int l = 0; l < table.layers; ++l)
        for (int h = 0; h < table.heads; ++h)
            for (int q = 0; q < kLabQueries; ++q) {
                const int token = lab_query_token(q, square1, square2);
                table.cells.push_back(token >= 0 ? shares_of(t, l, h, token, square1, square2) : LabShares{});
            }
    return table;
}

LabPick pick_head(const LabShareTable& t, int query, int layer) {
    LabPick best;
    best.weight = -1;
    for (int l = 0; l < t.layers; ++l) {
        if (layer >= 0 && l != layer) continue;
        for (int h = 0; h < t.heads; ++h)
            if (const double w = task_weight(t.at(l, h, query), query); w > best.weight) best = {l, h, w};
    }
    if (best.weight < 0) best = {std::max(0, layer), 0, 0};
    return best;
}

std::optional<LabPositions> position_similarity(const vit::Model& m) {
    const int prefix = m.prefix_tokens() - m.num_registers;  // registers have no position row
    const int grid = m.pos_grid;
    if (grid <= 0 || m.pos.rows() < prefix + grid * grid) return std::nullopt;
    const int n = grid * grid;
    const vit::Mat p = m.pos.block(prefix, 0, n, m.pos.cols());
    if (p.cwiseAbs().maxCoeff() == 0) return std::nullopt;  // never learned
    LabPositions out;
    out.grid = grid;
    out.cosine.assign(static_cast<size_t>(n) * n, 0.f);
    Eigen::VectorXd norm(n);
    for (int i = 0; i < n; ++i) norm[i] = p.row(i).cast<double>().norm();
    double near = 0, far = 0;
    int near_n = 0, far_n = 0;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            const double dot = p.row(i).cast<double>().dot(p.row(j).cast<double>());
            const double c = norm[i] > 0 && norm[j] > 0 ? dot / (norm[i] * norm[j]) : 0;
            out.cosine[static_cast<size_t>(i) * n + j] = static_cast<float>(c);
            if (i >= j) continue;  // each pair once
            const int dr = std::abs(i / grid - j / grid), dc = std::abs(i % grid - j % grid);
            if (dr + dc == 1) near += c, ++near_n;
            else if (std::max(dr, dc) >= 4) far += c, ++far_n;
        }
    out.near = near_n ? near / near_n : 0;
    out.far = far_n ? far / far_n : 0;
    return out;
}

std::vector<LabStepNumbers> run_numbers(const LabRun& run, const vit::Image& sample, int square1, int square2,
                                        const LabModelSource& model) {
    std::vector<LabStepNumbers> out;
    for (size_t i = 0; i < run.log.size(); ++i) {
        const auto m = model(run.checkpoint_dir(i));
        const auto trace = run_checkpoint(*m, sample);
        LabStepNumbers s;
        s.step = run.log[i].step;
        s.accuracy = run.log[i].accuracy;
        s.loss = run.log[i].loss;
        s.shares = share_table(*trace, square1, square2);
        s.positions = position_similarity(*m);
        out.push_back(std::move(s));
    }
    return out;
}

LabMoment learned_moment(const std::vector<LabStepNumbers>& series, int layer, int head, int query, int tokens,
                         int patches) {
    LabMoment m;
    m.layer = layer;
    m.head = head;
    m.query = query;
    m.threshold = kReachRatio * even_task_share(query, tokens, patches);
    for (size_t i = 0; i < series.size(); ++i) {
        const LabStepNumbers& s = series[i];
        if (layer < s.shares.layers && head < s.shares.heads && m.learned_index < 0) {
            const double w = task_weight(s.shares.at(layer, head, query), query);
            if (w >= m.threshold) m.learned_index = static_cast<int>(i), m.learned_step = s.step, m.learned_weight = w;
        }
        if (m.accurate_index < 0 && s.accuracy > kAccurate)
            m.accurate_index = static_cast<int>(i), m.accurate_step = s.step, m.accurate_value = s.accuracy;
    }
    return m;
}

namespace {

std::string format_text(const char* fmt, auto... args) {
    char buf[512];
    std::snprintf(buf, sizeof buf, fmt, args...);
    return buf;
}

}  // namespace

std::string position_sentence(const LabPositions* p, int step) {
    const std::string at = with_thousands(step);
    if (!p) return "This model has no position embeddings: nothing tells it where a patch is.";
    return p->holds()
               ? format_text(
                     "At step %s the position embeddings form a grid: neighbouring positions are %.2f alike (cosine), "
                     "positions 4 or more apart %.2f, a difference of %.2f (at least %.2f).",
                     at.c_str(), p->near, p->far, p->near - p->far, kPositionMargin)
               : format_text(
                     "At step %s the position embeddings show no grid yet: neighbouring positions are %.2f alike "
                     "(cosine), positions 4 or more apart %.2f, a difference of %.2f (under %.2f).",
                     at.c_str(), p->near, p->far, p->near - p->far, kPositionMargin);
}

std::string moment_sentence(const LabMoment& m) {
    const std::string who = m.query == kQueryCls ? "the class token's" : "the query's";
    const std::string what = m.query == kQueryCls ? "the two squares" : "the other square";
    std::string first, second;
    if (m.learned_step >= 0)
        first = format_text("Head %d of layer %d first puts %.0f %% of %s weight on %s (at least %.1f %%) at step %s",
                            m.head, m.layer, 100 * m.learned_weight, who.c_str(), what.c_str(), 100 * m.threshold,
                            with_thousands(m.learned_step).c_str());
    else
        first = format_text("Head %d of layer %d never puts %.1f %% of %s weight on %s", m.head, m.layer,
                            100 * m.threshold, who.c_str(), what.c_str());
    if (m.accurate_step >= 0)
        second = format_text("the held-out accuracy first passes %.1f at step %s (%.3f)", kAccurate,
                             with_thousands(m.accurate_step).c_str(), m.accurate_value);
    else second = format_text("the held-out accuracy never passes %.1f", kAccurate);
    std::string order;
    if (m.learned_step >= 0 && m.accurate_step >= 0)
        order = m.learned_step < m.accurate_step   ? ": the head learned to look first."
                : m.learned_step > m.accurate_step ? ": the accuracy rose first."
                                                   : ": both at the same checkpoint.";
    else order = ".";
    return first + "; " + second + order;
}

std::string lab_csv(const std::vector<LabStepNumbers>& series) {
    std::string out =
        "step,layer,head,query,weight_square1,weight_square2,weight_background,accuracy,loss,position_near,"
        "position_far,position_holds\n";
    for (const LabStepNumbers& s : series) {
        const std::string pos = s.positions ? format_text("%.6f,%.6f,%s", s.positions->near, s.positions->far,
                                                          s.positions->holds() ? "yes" : "no")
                                            : std::string(",,none");
        for (int l = 0; l < s.shares.layers; ++l)
            for (int h = 0; h < s.shares.heads; ++h)
                for (int q = 0; q < kLabQueries; ++q) {
                    const LabShares& w = s.shares.at(l, h, q);
                    out += format_text("%d,%d,%d,%s,%.6f,%.6f,%.6f,%.6f,%.6f,", s.step, l, h, lab_query_name(q),
                                       w.square1, w.square2, w.background, s.accuracy, s.loss);
                    out += pos + "\n";
                }
    }
    return out;
}

}  // namespace session
