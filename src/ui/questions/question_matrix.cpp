// "What does one head's whole attention look like?": the selected head's N x N
// weights as one picture (queries as rows, keys as columns), drawn by
// shaders/matrix.frag from a float texture; CLS and the registers set apart,
// the selected query's row outlined, hover names the cell, a click on a row
// makes that token the query, and the zoom closes in around it.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "gfx/matrix_renderer.h"
#include "gfx/render_target.h"
#include "ui/questions/question_view.h"
#include "ui/questions/question_widgets.h"
#include "ui/widgets/bounded_text.h"
#include "ui/widgets/color_bar.h"
#include "ui/widgets/figure_probe.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/theme.h"
#include "vit/analysis/attention_matrix.h"
#include "vit/forward/token_name.h"

namespace ui {
namespace {

class MatrixView : public QuestionView {
public:
    void draw(const Frame& f) override;

private:
    // Renders the window of the matrix into target_ when anything it shows changed.
    void render(const Frame& f, const vit::Trace& t, const vit::MatrixWindow& w, int px);

    std::unique_ptr<gfx::MatrixRenderer> renderer_;
    std::unique_ptr<gfx::RenderTarget> target_;
    gfx::GridTexture weights_;
    std::string error_;
    // What target_ shows.
    const vit::Trace* trace_ = nullptr;
    int generation_ = -1, layer_ = -1, head_ = -1, selected_ = -1, px_ = 0;
    vit::MatrixWindow window_;
    gfx::Colormap colormap_ = gfx::Colormap::Viridis;
    float top_ = 0;
};

void MatrixView::render(const Frame& f, const vit::Trace& t, const vit::MatrixWindow& w, int px) {
    const session::AppState& s = f.s;
    const int layer = s.sel.layer, head = s.sel.head;
    const bool new_weights = trace_ != &t || generation_ != s.loaded.generation || layer_ != layer || head_ != head;
    const bool stale = new_weights || selected_ != s.sel.query || px_ != px || window_.first_row != w.first_row ||
                       window_.cells != w.cells || colormap_ != s.style.colormap || !target_;
    if (!stale) return;
    if (!renderer_) renderer_ = std::make_unique<gfx::MatrixRenderer>();
    const vit::Mat& a = t.layers[layer].heads[head].attn;
    if (new_weights) {
        // Row-major already (vit::Mat): rows are queries, as the texture's rows.
        weights_.upload(std::vector<float>(a.data(), a.data() + a.size()), t.tokens);
        top_ = vit::matrix_max(t, layer, head);
    }
    gfx::FramebufferScope keep;
    if (!target_) target_ = std::make_unique<gfx::RenderTarget>();
    target_->resize(px, px);
    target_->bind();
    glDisable(GL_SCISSOR_TEST);
    gfx::MatrixStyle style;
    style.colormap = s.style.colormap == gfx::Colormap::Diverging ? gfx::Colormap::Viridis : s.style.colormap;
    style.top = top_;
    style.prefix = t.prefix;
    style.selected = s.sel.query;
    style.line_px = std::max(1.f, f.fb_scale * f.scale * 1.5f);
    renderer_->draw(weights_, w, style, px, px);
    trace_ = &t, generation_ = s.loaded.generation, layer_ = layer, head_ = head, selected_ = s.sel.query, px_ = px;
    window_ = w, colormap_ = s.style.colormap;
}

void MatrixView::draw(const Frame& f) {
    const session::AppState& s = f.s;
    const vit::Trace* t = s.trace();
    if (!t) {
        note("The matrix appears once the model has run on a photo.");
        return;
    }
    const int n = t->tokens;
    evidence_heading(f, "The weights of one head, every query against every key");
    // A note: classroom mode folds it under "Read more", so the matrix gets the panel's height.
    char about[512];
    std::snprintf(about, sizeof about,
                  "Layer %d · head %d · %d × %d = %d weights. Rows: queries, columns: keys, in token order "
                  "(CLS%s first, then the patches row by row). The outlined row is the selected query, the one "
                  "the photo shows. Colour: log scale, three decades below the largest weight.",
                  s.sel.layer, s.sel.head, n, n, n * n,
                  t->prefix > 1 ? " and the other tokens before the patches" : "");
    note(about);
    if (s.sel.source == session::MapSource::MeanOfVisible)
        ImGui::TextColored(colors::muted, "The photo shows the mean of heads; this is head %d alone.", s.sel.head);

    if (!f.figure) {
        int zoom = s.matrix_zoom;
        ImGui::SetNextItemWidth(f.px(200));
        if (ImGui::SliderInt("zoom", &zoom, 1, session::kMaxMatrixZoom, "%d×"))
            f.emit(session::act::SetMatrixZoom{zoom});
        tooltip("Close in around the selected query's row and its own column: N / zoom cells a side.");
    }
    const vit::MatrixWindow w = vit::matrix_window(n, s.matrix_zoom, s.sel.query);
    ImGui::Text("Rows and columns %d to %d (%d a side)", w.first_row, w.first_row + w.cells - 1, w.cells);

    // The matrix as large as the page allows, square, with room for the axis names and the colour bar.
    const float label_w =
        std::max(ImGui::CalcTextSize("queries ↓").x, ImGui::CalcTextSize(t->prefix > 1 ? "CLS, registers" : "CLS").x) +
        f.px(8);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float side = std::floor(std::max(f.px(120), std::min(avail.x - label_w, avail.y - f.px(90))));
    const int px = std::max(1, static_cast<int>(std::lround(side * f.fb_scale)));
    try {
        render(f, *t, w, px);
    } catch (const std::exception& e) {
        error_ = e.what();
    }
    if (!error_.empty()) {
        ImGui::TextColored(colors::error, "%s", bounded(error_).c_str());
        return;
    }

    // A column for the rows' names left of the matrix; the keys' name above it.
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + label_w);
    ImGui::TextColored(colors::muted, "keys →");
    ImGui::Dummy(ImVec2(label_w, side));
    ImGui::SameLine(0, 0);
    const ImVec2 lo = ImGui::GetCursorScreenPos(), hi(lo.x + side, lo.y + side);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddText(ImVec2(lo.x - label_w, lo.y + side * 0.5f), ImGui::GetColorU32(colors::muted), "queries ↓");
    dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(target_->texture())), lo, hi,
                 ImVec2(0, target_->v_max()), ImVec2(target_->u_max(), 0));
    ImGui::InvisibleButton("##matrix", ImVec2(side, side));
    report_figure("picture", lo, hi);
    // Figures draw the whole matrix (zoom 1): its cells, for the tests that sample them.
    if (f.drawn.record_cells && w.first_row == 0 && w.cells == n)
        f.drawn.add_cells({"matrix/weights", lo.x, lo.y, side / w.cells, 0, w.cells, 1});
    const bool hovered = ImGui::IsItemHovered() && !f.figure;
    // The corners, for tests that point at a cell.
    const std::vector<session::PageTarget> targets = {{"matrix top left", lo.x, lo.y},
                                                      {"matrix bottom right", hi.x, hi.y}};
    if (!f.figure) f.drawn.page_targets = targets;
    // CLS (and the registers) named where their rows begin, when on show.
    const float cell = side / w.cells;
    if (w.first_row < t->prefix) {
        const char* label = t->prefix > 1 ? "CLS, registers" : "CLS";
        dl->AddText(ImVec2(lo.x - ImGui::CalcTextSize(label).x - f.px(4), lo.y - w.first_row * cell),
                    ImGui::GetColorU32(colors::pinned), label);
    }

    vit::MatrixCellIndex at;
    if (hovered) {
        const ImVec2 m = ImGui::GetIO().MousePos;
        at = vit::matrix_cell_at(w, (m.x - lo.x) / side, (m.y - lo.y) / side);
    }
    if (at.query != s.matrix_hover.query || at.key != s.matrix_hover.key)
        f.emit(session::act::HoverMatrixCell{at.query, at.key});
    if (at.query >= 0) {
        ImGui::BeginTooltip();
        ImGui::TextUnformatted(vit::matrix_cell_caption(*t, s.sel.layer, s.sel.head, at.query, at.key).c_str());
        ImGui::TextColored(colors::muted, "click: make this row's token the query");
        ImGui::EndTooltip();
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) f.emit(session::act::SelectQuery{at.query});
    }

    MapData legend;
    legend.grid = 1;
    legend.patches = {top_};
    legend.row_max = top_;
    legend.style.colormap = colormap_ == gfx::Colormap::Diverging ? gfx::Colormap::Viridis : colormap_;
    legend.style.normalization = gfx::Normalization::Log;
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + label_w);
    color_bar(f, legend, std::min(side, f.px(420)), "attention weight");
    note(
        "The colours are on a log scale, so weights much smaller than a row's largest stay visible, where a linear "
        "scale would show only the largest. Each row sums to one.");
}

}  // namespace

std::unique_ptr<QuestionView> make_matrix_view() { return std::make_unique<MatrixView>(); }

}  // namespace ui
