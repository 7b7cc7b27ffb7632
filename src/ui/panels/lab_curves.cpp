#include "ui/panels/lab_curves.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "session/lab/lab_numbers.h"
#include "session/lab/lab_view.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/plot.h"
#include "ui/widgets/theme.h"

namespace ui {
namespace {

// One colour per setting, whichever run is open: with positions blue, without orange.
ImVec4 setting_colour(bool position) { return colors::series[position ? 1 : 3]; }

PlotSeries line(const std::string& label, ImVec4 colour) {
    PlotSeries s;
    s.label = label;
    s.color = colour;
    return s;
}

// The checkpoint shown, as a marker on a curve.
PlotSeries marker(double x, double y) {
    PlotSeries dot;
    dot.kind = PlotSeries::Kind::Dots;
    dot.color = colors::accent;
    dot.x = {x};
    dot.y = {y};
    dot.highlight = 0;
    return dot;
}

// Every plot on the run's steps: the same x range, so a step lines up down the column.
void step_range(const session::LabState& l, PlotAxes& axes) {
    double hi = 0;
    if (l.run && !l.run->log.empty()) hi = l.run->log.back().step;
    if (l.pair && !l.pair->log.empty()) hi = std::max<double>(hi, l.pair->log.back().step);
    if (l.training.running) hi = std::max<double>(hi, l.training.steps);
    axes.x_lo = 0;
    axes.x_hi = std::max(1.0, hi);
}

void heading(const Frame& f, const char* text) {
    ImGui::PushFont(f.fonts.bold);
    ImGui::TextUnformatted(text);
    ImGui::PopFont();
}

}  // namespace

void lab_curves(const Frame& f, float height) {
    const session::LabState& l = f.s.lab;
    const bool training_now = l.training.running || (!l.training.log.empty() && !l.run);
    if (!l.run && !training_now) {
        heading(f, "Held-out accuracy");
        ImGui::TextColored(colors::muted, "(curves appear with a run)");
        return;
    }
    const bool attention = l.run && !l.series.empty() && l.square2 >= 0;
    const int plots = attention ? 3 : 2;
    const float h = std::max(f.px(70), height / plots - f.px(4));

    // Accuracy, with chance.
    std::vector<PlotSeries> acc;
    auto add_accuracy = [&](const std::vector<vit::train::LogRow>& log, const std::string& label, ImVec4 colour) {
        PlotSeries s = line(label, colour);
        for (const auto& r : log) s.x.push_back(r.step), s.y.push_back(r.accuracy);
        acc.push_back(s);
    };
    if (l.run)
        add_accuracy(l.run->log, l.run->position ? "with positions" : "without positions",
                     setting_colour(l.run->position));
    if (l.pair)
        add_accuracy(l.pair->log, l.pair->position ? "with positions" : "without positions",
                     setting_colour(l.pair->position));
    if (training_now) add_accuracy(l.training.log, "training now", colors::series[2]);
    PlotAxes axes;
    step_range(l, axes);
    PlotSeries chance = line("", colors::muted);  // named on the y axis
    chance.x = {axes.x_lo, axes.x_hi};
    chance.y = {0.5, 0.5};
    acc.push_back(chance);
    if (l.run && l.checkpoint < static_cast<int>(l.run->log.size()))
        acc.push_back(marker(l.run->log[l.checkpoint].step, l.run->log[l.checkpoint].accuracy));
    axes.x_label = "step";
    axes.y_label = "held-out accuracy (grey: chance)";
    axes.y_lo = 0.4;
    axes.y_hi = 1.0;
    plot(f, "##accuracy", ImVec2(ImGui::GetContentRegionAvail().x, h), axes, acc);

    // Loss: held-out at each checkpoint (log.csv), and every training batch while a run trains.
    std::vector<PlotSeries> loss;
    auto add_loss = [&](const std::vector<vit::train::LogRow>& log, const std::string& label, ImVec4 colour) {
        PlotSeries s = line(label, colour);
        for (const auto& r : log) s.x.push_back(r.step), s.y.push_back(r.loss);
        loss.push_back(s);
    };
    if (l.run)
        add_loss(l.run->log, l.run->position ? "with positions" : "without positions", setting_colour(l.run->position));
    if (l.pair)
        add_loss(l.pair->log, l.pair->position ? "with positions" : "without positions",
                 setting_colour(l.pair->position));
    if (l.training.running && l.training.batch_loss.size() > 1) {
        PlotSeries s = line("training-batch loss", colors::series[2]);
        const auto& b = l.training.batch_loss;
        for (size_t i = 0; i < b.size(); ++i) s.x.push_back(static_cast<double>(i + 1)), s.y.push_back(b[i]);
        loss.push_back(s);
    }
    if (l.run && l.checkpoint < static_cast<int>(l.run->log.size()))
        loss.push_back(marker(l.run->log[l.checkpoint].step, l.run->log[l.checkpoint].loss));
    PlotAxes la = axes;
    la.y_label = "held-out loss (chance: ln 2 = 0.69)";
    la.y_lo = 0;
    double top = 0.8;
    for (const PlotSeries& s : loss)
        for (double y : s.y) top = std::max(top, y);
    la.y_hi = std::min(3.0, top * 1.05);
    plot(f, "##loss", ImVec2(ImGui::GetContentRegionAvail().x, h), la, loss);

    if (!attention) return;
    // The learned moment: per layer, the head chosen in it (at the step shown), its weight on the task's squares.
    const int query = l.query_square;
    const auto& shown = l.series.at(std::min<size_t>(l.checkpoint, l.series.size() - 1)).shares;
    std::vector<PlotSeries> att;
    for (int layer = 0; layer < shown.layers; ++layer) {
        const int head = session::pick_head(shown, query, layer).head;
        PlotSeries s =
            line("layer " + std::to_string(layer) + " head " + std::to_string(head), colors::series[layer % 5]);
        for (const session::LabStepNumbers& n : l.series)
            s.x.push_back(n.step), s.y.push_back(session::task_weight(n.shares.at(layer, head, query), query));
        att.push_back(s);
    }
    if (l.moment) {
        PlotSeries t = line("", colors::muted);  // the threshold the claim needs
        t.x = {axes.x_lo, axes.x_hi};
        t.y = {l.moment->threshold, l.moment->threshold};
        att.push_back(t);
        const auto& n = l.series[std::min<size_t>(l.checkpoint, l.series.size() - 1)];
        att.push_back(marker(n.step, session::task_weight(n.shares.at(l.moment->layer, l.moment->head, query), query)));
    }
    PlotAxes wa = axes;
    wa.y_label = query == session::kQueryCls ? "class token's weight on the squares (line: 4 x even)"
                                             : "query's weight on the other square (line: 4 x even)";
    wa.y_lo = 0;
    wa.y_hi = 1.02;  // a weight of 1 drawn inside the box, not on its edge
    plot(f, "##moment", ImVec2(ImGui::GetContentRegionAvail().x, h), wa, att);
}

void lab_position_grid(const Frame& f, float side) {
    const session::LabState& l = f.s.lab;
    heading(f, "Position embeddings");
    if (!l.run) return;
    const session::LabPositions* p = nullptr;
    if (const size_t shown = l.run->checkpoint_at(l.now.step); shown < l.series.size() && l.series[shown].positions)
        p = &*l.series[shown].positions;
    if (!p) {
        text_wrapped_at_spaces(colors::muted,
                               l.run->position ? "(none at this checkpoint)"
                                               : "None: this model has no position embeddings, so nothing tells it "
                                                 "where a patch is.",
                               side);
        return;
    }
    const int g = p->grid, n = g * g;
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float gap = std::max(1.f, f.px(2)), tile = (side - gap * (g - 1)) / g, cell = tile / g;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    // Blue (-1) through white (0) to red (+1): the sign of a cosine matters.
    auto colour = [](float c) {
        c = std::clamp(c, -1.f, 1.f);
        const float a = std::abs(c);
        return c >= 0 ? ImGui::GetColorU32(ImVec4(1.f, 1.f - 0.85f * a, 1.f - 0.85f * a, 1.f))
                      : ImGui::GetColorU32(ImVec4(1.f - 0.85f * a, 1.f - 0.6f * a, 1.f, 1.f));
    };
    for (int i = 0; i < n; ++i) {
        const ImVec2 t(at.x + (i % g) * (tile + gap), at.y + (i / g) * (tile + gap));
        for (int j = 0; j < n; ++j) {
            const ImVec2 a(t.x + (j % g) * cell, t.y + (j / g) * cell);
            dl->AddRectFilled(a, ImVec2(a.x + cell, a.y + cell), colour(p->cosine[static_cast<size_t>(i) * n + j]));
        }
    }
    ImGui::Dummy(ImVec2(side, side));
    if (ImGui::IsItemHovered()) {
        const ImVec2 m = ImGui::GetIO().MousePos;
        const int col = std::clamp(static_cast<int>((m.x - at.x) / (tile + gap)), 0, g - 1),
                  row = std::clamp(static_cast<int>((m.y - at.y) / (tile + gap)), 0, g - 1);
        ImGui::SetTooltip("position (%d, %d): its similarity with every other position", row, col);
    }
    text_wrapped_at_spaces(colors::muted, kLabGridCaption, side);
}

}  // namespace ui
