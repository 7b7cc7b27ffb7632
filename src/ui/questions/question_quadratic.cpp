// "Why is attention quadratic?": the input size for the whole window, what N
// tokens cost at each size (N × N weights per head, their memory, the
// floating-point operations of the linear layers against the attention's),
// where theory says the attention overtakes the linear layers, and the
// forward pass timed on this machine at every size with the fits a·N and b·N².
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "ui/questions/question_view.h"
#include "ui/questions/question_widgets.h"
#include "ui/widgets/figure_probe.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/input_size_control.h"
#include "ui/widgets/plot.h"
#include "ui/widgets/theme.h"
#include "vit/analysis/quadratic.h"

namespace ui {
namespace {

class QuadraticView : public QuestionView {
public:
    void draw(const Frame& f) override;

private:
    void sizes_table(const Frame& f, const std::vector<InputSizeChoice>& choices);
    void measured(const Frame& f, const std::vector<InputSizeChoice>& choices);
};

// "38.8 k", "1.40 M", "92.3 M": three significant digits, short enough for a narrow table.
std::string compact(long long n) {
    const double v = n >= 1000000 ? n / 1e6 : n / 1e3;
    const char* unit = n >= 1000000 ? "M" : "k";
    char text[32];
    if (n < 10000) std::snprintf(text, sizeof text, "%lld", n);
    else std::snprintf(text, sizeof text, v < 10 ? "%.2f %s" : v < 100 ? "%.1f %s" : "%.0f %s", v, unit);
    return text;
}

std::string bytes_text(long long bytes) {
    char text[32];
    if (bytes >= (1LL << 30)) std::snprintf(text, sizeof text, "%.2f GiB", bytes / double(1LL << 30));
    else std::snprintf(text, sizeof text, "%.1f MiB", bytes / double(1LL << 20));
    return text;
}

void QuadraticView::sizes_table(const Frame& f, const std::vector<InputSizeChoice>& choices) {
    const session::AppState& s = f.s;
    const vit::Model& m = *s.loaded.model;
    const int now = s.loaded.input->size;
    evidence_heading(f, "What N tokens cost, at every input size (this model, any photo)");
    ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX |
                            ImGuiTableFlags_BordersInnerV;
    // The rows, and room for the two-line header (its lines are spaced as text, wider than cell padding);
    // in classroom mode no taller than the fold, its rows scrolling under the header.
    const float whole = table_height(static_cast<int>(choices.size()) + 3);
    const float height = height_above_fold(f, whole, table_height(6));
    if (height < whole) flags |= ImGuiTableFlags_ScrollY;
    if (ImGui::BeginTable("##sizes", 7, flags, ImVec2(0, height))) {
        ImGui::TableSetupScrollFreeze(1, 1);
        ImGui::TableSetupColumn("input\n(px)");
        ImGui::TableSetupColumn("tokens\nN");
        ImGui::TableSetupColumn("N × N\nper head");
        ImGui::TableSetupColumn("weights,\nall heads");
        ImGui::TableSetupColumn("their\nmemory");
        ImGui::TableSetupColumn("linear\nMFLOP");
        ImGui::TableSetupColumn("attention\nMFLOP");
        wrapped_headers_row();
        for (const InputSizeChoice& c : choices) {
            const vit::AttentionSize a = vit::attention_size(m, c.px);
            const vit::BlockFlops fl = vit::block_flops(m, a.tokens);
            const ImVec4 colour = c.px == now         ? colors::accent
                                  : c.refusal.empty() ? ImGui::GetStyleColorVec4(ImGuiCol_Text)
                                                      : colors::muted;
            ImGui::TableNextRow();
            ImGui::PushStyleColor(ImGuiCol_Text, colour);
            ImGui::TableNextColumn();
            ImGui::Text("%d%s", c.px, c.refusal.empty() ? "" : " (too large)");
            if (!c.refusal.empty() && ImGui::IsItemHovered())
                ImGui::SetTooltip("Too large for this window: %s", c.refusal.c_str());
            ImGui::PushFont(f.fonts.mono);
            ImGui::TableNextColumn();
            ImGui::Text("%d", a.tokens);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(compact(a.weights_per_head).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(compact(a.attention_weights).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(bytes_text(a.attention_bytes).c_str());
            ImGui::TableNextColumn();
            ImGui::Text("%.0f", fl.linear / 1e6);
            ImGui::TableNextColumn();
            ImGui::Text("%.0f", fl.attention / 1e6);
            ImGui::PopFont();
            ImGui::PopStyleColor();
        }
        end_figure_table();
    }
    char text[512];
    std::snprintf(text, sizeof text,
                  "Blue: the size now. Weights in the whole model: %d layers × %d heads × N², kept as float32 (4 "
                  "bytes each). MFLOP: millions of floating-point operations per block, a multiply-add counted as 2: "
                  "the linear layers (q, k, v, the output projection and the MLP) cost "
                  "2N(4d² + 2dm) = %s, growing with N; the attention (q·kᵀ and a·v) costs 4N²d, growing with N² "
                  "(d = %d, m = %d; the softmax's exponentials not counted).",
                  m.depth, m.heads, m.mlp_dim == 4 * m.dim ? "24Nd²" : "…", m.dim, m.mlp_dim);
    note(text);
    const double n_star = vit::theoretical_crossover_tokens(m);
    ImGui::PushTextWrapPos(0);
    ImGui::Text(
        "Theory: the attention costs more than the linear layers from N = 2d + m = %.0f tokens, an input of "
        "about %.0f px.",
        n_star, vit::input_size_for_tokens(m, n_star));
    ImGui::PopTextWrapPos();
}

void QuadraticView::measured(const Frame& f, const std::vector<InputSizeChoice>& choices) {
    const session::AppState& s = f.s;
    const vit::Model& m = *s.loaded.model;
    evidence_heading(f, "Measured on this machine: the forward pass at each size");
    std::vector<int> sizes;
    std::string skipped;
    for (const InputSizeChoice& c : choices) {
        if (!c.refusal.empty()) skipped += (skipped.empty() ? "" : ", ") + std::to_string(c.px) + " px";
        else sizes.push_back(c.px);
    }
    char label[96];
    std::snprintf(label, sizeof label, "Time it (%zu sizes × 3 runs)", sizes.size());
    std::string name = "timing";
    for (int px : sizes) name += "-" + std::to_string(px);
    const std::string key = experiment_key(f, name);
    const bool have =
        experiment_controls(f, label, key,
                            [model = s.loaded.model, image = s.loaded.image, sizes](const vit::TaskControl& c) {
                                return std::static_pointer_cast<const void>(std::make_shared<const vit::TimingRun>(
                                    vit::measure_forward_times(*model, *image, sizes, 3, c)));
                            });
    if (!skipped.empty()) ImGui::TextColored(colors::muted, "Left out, over the memory budget: %s.", skipped.c_str());
    if (!have) {
        note("Runs the whole forward pass three times at every size on this photo and keeps the median of each part.");
        return;
    }
    const auto run = s.experiments.result<vit::TimingRun>(key);
    if (run->cancelled)
        ImGui::TextColored(colors::whatif, "Stopped early: %zu of %zu sizes timed.", run->points.size(), sizes.size());
    if (run->points.empty()) return;
    const vit::CostFit fit = vit::fit_costs(run->points);

    PlotSeries linear{PlotSeries::Kind::Dots, "linear layers; line: fit a·N", {}, {}, colors::accent};
    PlotSeries attention{
        PlotSeries::Kind::Dots, "attention (q·kᵀ, softmax, a·v); line: fit b·N²", {}, {}, colors::whatif};
    double n_max = 0;
    for (const vit::TimingPoint& p : run->points) {
        linear.x.push_back(p.tokens), linear.y.push_back(1e3 * p.linear_seconds);
        attention.x.push_back(p.tokens), attention.y.push_back(1e3 * p.attention_seconds);
        char name_text[64];
        std::snprintf(name_text, sizeof name_text, "%d px, N = %d", p.input_size, p.tokens);
        linear.names.push_back(std::string("linear, ") + name_text);
        attention.names.push_back(std::string("attention, ") + name_text);
        n_max = std::max(n_max, static_cast<double>(p.tokens));
    }
    // The fitted curves, drawn past the largest size to where they cross when that is near.
    const double x_hi =
        1.08 * std::max(n_max, fit.crossover_tokens > 0 ? std::min(fit.crossover_tokens, 2.5 * n_max) : 0.0);
    // A fitted line in its dots' own colour: a lighter one fell below 3:1 against the page (2.4:1 on the light
    // theme); the dots stand out as dots.
    PlotSeries fit_linear{PlotSeries::Kind::Line, "", {}, {}, colors::accent};
    PlotSeries fit_attention{PlotSeries::Kind::Line, "", {}, {}, colors::whatif};
    for (int i = 0; i <= 48; ++i) {
        const double n = x_hi * i / 48;
        fit_linear.x.push_back(n), fit_linear.y.push_back(1e3 * fit.linear_at(n));
        fit_attention.x.push_back(n), fit_attention.y.push_back(1e3 * fit.attention_at(n));
    }
    PlotAxes axes;
    axes.x_label = "tokens N";
    axes.y_label = "time per forward (ms)";
    axes.x_lo = 0, axes.x_hi = x_hi;
    double y_top = 0;
    for (const vit::TimingPoint& p : run->points)
        y_top = std::max({y_top, 1e3 * p.linear_seconds, 1e3 * p.attention_seconds});
    // Up to the measured times or the linear fit's end, whichever is higher (the N² curve may leave the top),
    // with room above for the legend.
    axes.y_lo = 0, axes.y_hi = 1.35 * std::max(y_top, 1e3 * fit.linear_at(x_hi));
    plot(f, "##timing", ImVec2(ImGui::GetContentRegionAvail().x, f.px(220)), axes,
         {fit_linear, fit_attention, linear, attention});

    if (ImGui::BeginTable("##timing_table", 5,
                          ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersInnerV)) {
        ImGui::TableSetupColumn("input");
        ImGui::TableSetupColumn("tokens N");
        ImGui::TableSetupColumn("linear (ms)");
        ImGui::TableSetupColumn("attention (ms)");
        ImGui::TableSetupColumn("whole forward (ms)");
        wrapped_headers_row();
        ImGui::PushFont(f.fonts.mono);
        for (const vit::TimingPoint& p : run->points) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::Text("%d px", p.input_size);
            ImGui::TableNextColumn();
            ImGui::Text("%d", p.tokens);
            ImGui::TableNextColumn();
            ImGui::Text("%.1f", 1e3 * p.linear_seconds);
            ImGui::TableNextColumn();
            ImGui::Text("%.1f", 1e3 * p.attention_seconds);
            ImGui::TableNextColumn();
            ImGui::Text("%.1f", 1e3 * p.total_seconds);
        }
        ImGui::PopFont();
        end_figure_table();
    }
    const double n_star = vit::theoretical_crossover_tokens(m);
    ImGui::PushTextWrapPos(0);
    if (fit.crossover_tokens > 0)
        ImGui::Text(
            "Crossover, measured: the fits cross at N ≈ %.0f tokens (an input of about %.0f px). Theory: N = %.0f "
            "tokens (about %.0f px).",
            fit.crossover_tokens, vit::input_size_for_tokens(m, fit.crossover_tokens), n_star,
            vit::input_size_for_tokens(m, n_star));
    else
        ImGui::Text(
            "Crossover, measured: the attention's fit has no N² part, so the fits do not cross. Theory: N = %.0f "
            "tokens.",
            n_star);
    ImGui::PopTextWrapPos();
    char threads[160];
    std::snprintf(threads, sizeof threads, " Each forward pass ran on %d thread%s%s.", run->threads,
                  run->threads == 1 ? "" : "s",
                  run->threads == 1 && !f.figure ? " (the window's experiments keep to one core, so the window stays "
                                                   "responsive)"
                                                 : "");
    note((std::string("Fits through the origin by least squares: linear ≈ a·N, attention ≈ b·N². Measured now, on this "
                      "machine, with whatever else it is running: the times vary from run to run.") +
          threads +
          " Theory counts arithmetic only; measured time also depends on memory traffic and on how well each part uses "
          "the processor's vector units.")
             .c_str());
}

void QuadraticView::draw(const Frame& f) {
    const session::AppState& s = f.s;
    const vit::Trace& t = *s.trace();
    const vit::Model& m = *s.loaded.model;
    evidence_heading(f, "The input size, for the whole window");
    input_size_control(f);
    ImGui::SameLine();
    ImGui::TextWrapped("%d × %d patches of %d px: N = %d tokens with CLS%s", t.grid, t.grid, m.patch, t.tokens,
                       t.prefix > 1 ? " and the other tokens before the patches" : "");
    note(
        "Every panel follows the new grid; position embeddings are interpolated (bicubic, as timm does) to sizes the "
        "model was not trained at.");
    const std::vector<InputSizeChoice> choices = input_size_choices(s);
    sizes_table(f, choices);
    measured(f, choices);
}

}  // namespace

std::unique_ptr<QuestionView> make_quadratic_view() { return std::make_unique<QuadraticView>(); }

}  // namespace ui
