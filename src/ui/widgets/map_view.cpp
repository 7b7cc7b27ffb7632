#include "ui/widgets/map_view.h"

#include <algorithm>
#include <cmath>

#include "ui/widgets/figure_probe.h"
#include "ui/widgets/gl_cache.h"

namespace ui {
namespace {

bool same_marks(const gfx::Marks& a, const gfx::Marks& b) {
    return a.selected_row == b.selected_row && a.selected_col == b.selected_col && a.hover_row == b.hover_row &&
           a.hover_col == b.hover_col && a.pinned_row == b.pinned_row && a.pinned_col == b.pinned_col;
}

}  // namespace

gfx::Marks marks_for(const vit::Trace& t, int query, int hovered, int pinned) {
    gfx::Marks m;
    m.selected_row = t.row_of(query);
    m.selected_col = t.col_of(query);
    if (hovered >= 0) m.hover_row = t.row_of(hovered), m.hover_col = t.col_of(hovered);
    if (pinned >= 0) m.pinned_row = t.row_of(pinned), m.pinned_col = t.col_of(pinned);
    return m;
}

MapPhoto loaded_photo(const Frame& f) {
    MapPhoto p;
    if (f.gpu.has_photo()) p.texture = &f.gpu.photo(), p.generation = f.gpu.photo_generation();
    p.trace = f.s.trace();
    // Before a model has run there is no crop: show the whole photo undimmed.
    p.crop = p.trace || !p.texture ? f.s.loaded.crop
                                   : vit::CropRect{0, 0, static_cast<double>(p.texture->width()),
                                                   static_cast<double>(p.texture->height())};
    return p;
}

MapPhoto compared_photo(const Frame& f) {
    MapPhoto p;
    if (f.gpu.compare_photo().id() != 0) p.texture = &f.gpu.compare_photo(), p.generation = f.gpu.compare_generation();
    p.trace = f.s.compared.trace.get();
    p.crop = f.s.compared.crop;
    return p;
}

ImVec2 fit_photo(const session::AppState& s, ImVec2 avail) {
    const vit::Image* im = s.loaded.image.get();
    return im ? fit_size(im->width, im->height, avail) : fit_size(1, 1, avail);
}

ImVec2 fit_size(int width, int height, ImVec2 avail) {
    const float aspect = width > 0 && height > 0 ? static_cast<float>(width) / height : 1.f;
    float w = std::max(1.f, avail.x), h = w / aspect;
    if (h > avail.y) h = std::max(1.f, avail.y), w = h * aspect;
    return {std::floor(w), std::floor(h)};
}

void MapView::render(const Frame& f, const MapData* map, const gfx::Marks& marks, int w, int h, const MapPhoto& photo) {
    gfx::OverlayRenderer* r = f.gpu.renderer();
    if (!r || !photo.texture || photo.texture->id() == 0) return;
    gfx::FramebufferScope keep;
    if (!target_) {
        target_ = std::make_unique<gfx::RenderTarget>();
        // Shown at one texel per pixel (show()): nearest sampling is the same
        // picture, and cheaper for llvmpipe than bilinear.
        target_->set_filter(GL_NEAREST);
    }
    target_->resize(w, h);
    target_->bind();
    glDisable(GL_SCISSOR_TEST);
    if (map && map->grid > 0) values_.upload(map->patches, map->grid);
    gfx::OverlayStyle style = map ? map->style : gfx::OverlayStyle{};
    style.line_width = std::max(1.f, f.fb_scale * f.scale);
    r->draw(*photo.texture, photo.crop, map && map->grid > 0 ? &values_ : nullptr, style, marks);
}

MapHit MapView::show(const Frame& f, const char* id, const MapData* map, const gfx::Marks& marks, ImVec2 size,
                     const MapPhoto* photo_in) {
    MapHit hit;
    const MapPhoto photo = photo_in ? *photo_in : loaded_photo(f);
    const GLuint texture = photo.texture ? photo.texture->id() : 0;
    const int w = std::max(1, static_cast<int>(std::lround(size.x * f.fb_scale)));
    const int h = std::max(1, static_cast<int>(std::lround(size.y * f.fb_scale)));
    const bool stale = !target_ || target_->width() != w || target_->height() != h ||
                       shown_generation_ != photo.generation || shown_texture_ != texture ||
                       shown_has_trace_ != (photo.trace != nullptr) || shown_has_map_ != (map != nullptr) ||
                       (map && !shown_.same_as(*map)) || !same_marks(marks, shown_marks_);
    if (stale) {
        render(f, map, marks, w, h, photo);
        shown_ = map ? *map : MapData{};
        shown_has_map_ = map != nullptr;
        shown_marks_ = marks;
        shown_generation_ = photo.generation;
        shown_texture_ = texture;
        shown_has_trace_ = photo.trace != nullptr;
    }
    if (photo.texture && photo.texture == &f.gpu.photo()) {
        MapTally& tally = f.gpu.map_tally();
        ++tally.shown;
        tally.rendered += stale;
        tally.behind += photo.generation != f.s.loaded.generation;
    }

    hit.min = ImGui::GetCursorScreenPos();
    hit.max = ImVec2(hit.min.x + size.x, hit.min.y + size.y);
    report_figure("map", hit.min, hit.max);
    {
        const ImVec2 clip_min = ImGui::GetWindowDrawList()->GetClipRectMin(),
                     clip_max = ImGui::GetWindowDrawList()->GetClipRectMax();
        const float x0 = std::max(hit.min.x, clip_min.x), y0 = std::max(hit.min.y, clip_min.y);
        const float x1 = std::min(hit.max.x, clip_max.x), y1 = std::min(hit.max.y, clip_max.y);
        f.gpu.map_tally().rects.push_back(
            {hit.min.x, hit.min.y, size.x, size.y, x0, y0, std::max(0.f, x1 - x0), std::max(0.f, y1 - y0)});
    }
    if (f.drawn.record_cells && map && map->grid > 0 && photo.texture && photo.texture->width() > 0) {
        // The model's crop on the photo as drawn, cut into the map's grid: "PAGE/ID" (id without its "##").
        const float sx = size.x / static_cast<float>(photo.texture->width());
        const float sy = size.y / static_cast<float>(photo.texture->height());
        f.drawn.add_cells({f.cells_name(id), hit.min.x + static_cast<float>(photo.crop.x) * sx,
                           hit.min.y + static_cast<float>(photo.crop.y) * sy,
                           static_cast<float>(photo.crop.w) * sx / map->grid, 0, map->grid, 1});
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    if (target_ && texture != 0) {
        // One texel per framebuffer pixel, at a whole pixel (a map centred in
        // its panel may start half-way): the picture as rendered, not resampled.
        // GL rows run from the bottom: flip v.
        const float fb = f.fb_scale;
        const ImVec2 at(std::round(hit.min.x * fb) / fb, std::round(hit.min.y * fb) / fb);
        dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(target_->texture())), at,
                     ImVec2(at.x + target_->width() / fb, at.y + target_->height() / fb), ImVec2(0, target_->v_max()),
                     ImVec2(target_->u_max(), 0));
    } else {
        dl->AddRectFilled(hit.min, hit.max, IM_COL32(40, 40, 40, 255));
    }
    ImGui::InvisibleButton(id, size, ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
    hit.hovered = ImGui::IsItemHovered();
    hit.clicked = hit.hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Left);
    hit.right_clicked = hit.hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Right);

    const vit::Trace* t = photo.trace;
    if (hit.hovered && t && texture != 0 && t->grid > 0) {
        const ImVec2 m = ImGui::GetIO().MousePos;
        const double px = (m.x - hit.min.x) / size.x * photo.texture->width();
        const double py = (m.y - hit.min.y) / size.y * photo.texture->height();
        const vit::CropRect& c = photo.crop;
        const int col = static_cast<int>(std::floor((px - c.x) / c.w * t->grid));
        const int row = static_cast<int>(std::floor((py - c.y) / c.h * t->grid));
        if (row >= 0 && col >= 0 && row < t->grid && col < t->grid) {
            hit.row = row;
            hit.col = col;
            hit.token = t->token_of(row, col);
        }
    }
    return hit;
}

}  // namespace ui
