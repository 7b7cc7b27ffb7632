// "What did the position embeddings learn?" (ViT paper, Fig. 7 centre): the
// cosine similarity of each patch position's embedding with every other's:
// one large map on the photo for the selected query's position, and the grid
// of small maps, one per position: one texture holds all grid⁴ cells (a texel
// each), drawn as grid² quads (drawn as cells they were 38k rectangles a frame
// for the default model). Click a small map to make that position the query.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "gfx/textures.h"
#include "ui/questions/question_view.h"
#include "ui/questions/question_widgets.h"
#include "ui/widgets/color_bar.h"
#include "ui/widgets/figure_probe.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/map_view.h"
#include "ui/widgets/theme.h"
#include "ui/widgets/vector_strip.h"
#include "vit/analysis/position.h"
#include "vit/forward/token_name.h"

namespace ui {
namespace {

class PositionView : public QuestionView {
public:
    void draw(const Frame& f) override;

private:
    void small_maps(const Frame& f, const vit::Trace& t, float w);

    // Per model and grid: the grid² x grid² cosines, and their colours laid
    // out as the small maps are (small map p at texels (p%g, p/g) * g).
    int generation_ = -1;
    vit::Mat cosine_;
    vit::PositionStructure structure_;
    gfx::PhotoTexture mosaic_;
    MapView large_;
};

void PositionView::small_maps(const Frame& f, const vit::Trace& t, float w) {
    const int g = t.grid, n = g * g;
    // Each small map is g x g cells, with a gap of half a cell (at least a pixel) between maps.
    const float gap = std::max(1.f, std::floor(0.5f * w / (g * g + (g - 1) * 0.5f)));
    const float cell = std::max(1.f, (w - (g - 1) * gap) / (g * g));
    const float map = cell * g, step = map + gap;
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const float side = step * g - gap;
    ImGui::InvisibleButton("##small_maps", ImVec2(side, side));
    report_figure("picture", o, ImVec2(o.x + side, o.y + side));
    const bool hovered = ImGui::IsItemHovered(), clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    f.drawn.add_cells({"position/small_maps", o.x, o.y, cell, step, g, g});
    const auto texture = reinterpret_cast<ImTextureID>(static_cast<intptr_t>(mosaic_.id()));
    // One small map's share of the mosaic. The mosaic fills only the top-left
    // (u_max x v_max) of its texture's storage (a size class: 196 texels sit in
    // 256), so a share is that extent over g, not 1 / g.
    const float du = mosaic_.u_max() / g, dv = mosaic_.v_max() / g;
    for (int p = 0; p < n; ++p) {
        const float x0 = o.x + (p % g) * step, y0 = o.y + (p / g) * step;
        const ImVec2 uv0((p % g) * du, (p / g) * dv);
        dl->AddImage(texture, ImVec2(x0, y0), ImVec2(x0 + map, y0 + map), uv0, ImVec2(uv0.x + du, uv0.y + dv));
    }
    auto outline = [&](int p, ImU32 colour) {
        const float x0 = o.x + (p % g) * step, y0 = o.y + (p / g) * step;
        // A dark ring under the colour, so the outline shows on red and blue cells alike.
        dl->AddRect(ImVec2(x0 - 2.f, y0 - 2.f), ImVec2(x0 + map + 2.f, y0 + map + 2.f), IM_COL32(0, 0, 0, 255), 0, 0,
                    f.px(4));
        dl->AddRect(ImVec2(x0 - 2.f, y0 - 2.f), ImVec2(x0 + map + 2.f, y0 + map + 2.f), colour, 0, 0, f.px(2));
    };
    if (t.is_patch(f.s.sel.query)) outline(f.s.sel.query - t.prefix, ImGui::GetColorU32(colors::accent));
    if (!hovered) return;
    const ImVec2 m = ImGui::GetIO().MousePos;
    const int mc = static_cast<int>((m.x - o.x) / step), mr = static_cast<int>((m.y - o.y) / step);
    if (mr < 0 || mc < 0 || mr >= g || mc >= g) return;
    const float ix = m.x - o.x - mc * step, iy = m.y - o.y - mr * step;
    if (ix >= map || iy >= map) return;  // in a gap
    const int p = mr * g + mc,
              k = std::min(g - 1, static_cast<int>(iy / cell)) * g + std::min(g - 1, static_cast<int>(ix / cell));
    outline(p, IM_COL32(255, 255, 255, 255));
    ImGui::SetTooltip("position (%d, %d) against (%d, %d): cosine %.3f\nclick: make (%d, %d) the query", mr, mc, k / g,
                      k % g, cosine_(p, k), mr, mc);
    if (clicked) f.emit(session::act::SelectQuery{t.token_of(mr, mc)});
}

void PositionView::draw(const Frame& f) {
    const session::AppState& s = f.s;
    const vit::Trace& t = *s.trace();
    const vit::Model& model = *s.loaded.model;
    const int g = t.grid, n = g * g;
    if (generation_ != s.loaded.generation) {
        cosine_ = vit::position_similarity(model, g);
        structure_ = vit::position_structure(cosine_, g);
        vit::Image mosaic;
        mosaic.width = mosaic.height = n;
        mosaic.rgb.resize(static_cast<size_t>(n) * n * 3);
        for (int p = 0; p < n; ++p)
            for (int k = 0; k < n; ++k) {
                const ImU32 c = diverging_color(cosine_(p, k), 1.f);  // IM_COL32: R in the low byte
                const int x = (p % g) * g + k % g, y = (p / g) * g + k / g;
                uint8_t* rgb = &mosaic.rgb[(static_cast<size_t>(y) * n + x) * 3];
                for (int ch = 0; ch < 3; ++ch) rgb[ch] = static_cast<uint8_t>(c >> (8 * ch));
            }
        mosaic_.upload(mosaic, gfx::PhotoTexture::Filter::Nearest);
        generation_ = s.loaded.generation;
    }
    const float w = ImGui::GetContentRegionAvail().x;
    if (model.pos_grid != g) {
        char text[256];
        std::snprintf(text, sizeof text,
                      "The model learned embeddings for a %d × %d grid; at this input size (%d × %d patches) they are "
                      "interpolated (bicubic), as the forward pass uses them. These are the interpolated ones.",
                      model.pos_grid, model.pos_grid, g, g);
        note(text);
    }

    const int q = s.sel.query;
    if (t.is_patch(q)) {
        char title[128];
        std::snprintf(title, sizeof title, "Patch (%d, %d)'s position embedding against every position's", t.row_of(q),
                      t.col_of(q));
        evidence_heading(f, title);
        vit::Vec row = vit::Vec::Zero(t.tokens);  // prefix tokens have no place on the grid: left at 0
        row.tail(n) = cosine_.row(q - t.prefix).transpose();
        const MapData map = signed_map(t, row, s.style);
        const ImVec2 size =
            fit_photo(s, ImVec2(w, maps_height_above_fold(f, std::min(w, f.px(420)), [](float) { return 0.f; })));
        const MapHit hit = large_.show(f, "##large", &map, marks_for(t, q, s.sel.hovered_key, -1), size);
        if (hit.hovered && hit.token >= 0) {
            f.emit(session::act::HoverKey{hit.token});
            ImGui::SetTooltip("%s: cosine %.3f\nclick: make it the query", vit::token_name(t, hit.token).c_str(),
                              row[hit.token]);
            if (hit.clicked) f.emit(session::act::SelectQuery{hit.token});
        }
        color_bar(f, map, size.x, "cosine similarity");
    } else {
        evidence_heading(f, "The selected query's position");
        note("CLS has no place on the grid and no patch position embedding: click a patch, or a small map below.");
    }

    evidence_heading(f, "Every position: one small map per patch position, in the grid's layout");
    note(
        "Each small map is one position's cosine similarity with every position (red: similar, blue: opposite, "
        "white: 0). Click a small map to make that position the query.");
    // The claim, from the cosines on show: neighbours against positions 4 or more apart.
    char said[512];
    if (structure_.holds())
        std::snprintf(said, sizeof said,
                      "The model was never told the grid's geometry, yet neighbouring positions have a mean cosine of "
                      "%.2f, against %.2f for positions %d or more apart; among those far pairs, the same row "
                      "averages %.2f, the same column %.2f, the rest %.2f. It learned this from data alone.",
                      structure_.neighbours, structure_.far, vit::kFarPositions, structure_.far_same_row,
                      structure_.far_same_col, structure_.far_other);
    else
        std::snprintf(said, sizeof said,
                      "In this model neighbouring positions are no more alike than far ones (mean cosine %.2f against "
                      "%.2f for positions %d or more apart): its position embeddings did not learn the grid's "
                      "geometry this way.",
                      structure_.neighbours, structure_.far, vit::kFarPositions);
    text_wrapped_at_spaces(said);
    small_maps(f, t, w);
}

}  // namespace

std::unique_ptr<QuestionView> make_position_view() { return std::make_unique<PositionView>(); }

}  // namespace ui
