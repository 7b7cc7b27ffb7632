#include "app/gui/attention_figure.h"

#include <cstdio>
#include <filesystem>

#include "session/core/shown_rows.h"
#include "vit/base/error.h"

namespace app {
namespace {

namespace fs = std::filesystem;

std::string format_weight(double w) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", w);
    return buf;
}

}  // namespace

gfx::FigureSpec attention_figure(const vit::Image& photo, const std::string& photo_path, const vit::CropRect& crop,
                                 const vit::Model& model, const std::string& model_dir, const vit::Trace& trace,
                                 const FigureChoice& c, const gfx::OverlayStyle& style) {
    const auto row = session::map_row(trace, c.layer, c.source, c.head, c.visible_heads, c.query);
    if (!row) throw vit::Error("no heads are visible: nothing to average");
    const int head = c.source == session::MapSource::Head ? c.head : -1;
    gfx::FigureSpec spec;
    spec.photo = &photo;
    spec.crop = crop;
    spec.grid = trace.grid;
    spec.values.assign(row->data() + trace.prefix, row->data() + trace.tokens);
    spec.marks.selected_row = trace.row_of(c.query);
    spec.marks.selected_col = trace.col_of(c.query);
    spec.style = style;
    spec.title = gfx::model_title(model_dir, model.config.name);
    spec.subtitle = gfx::attention_caption(c.layer, head, c.query, trace.row_of(c.query), trace.col_of(c.query));
    // The map shows patches only; say where the rest of the weight went.
    spec.note = fs::path(photo_path).filename().string() + " \u00b7 weight on CLS " + format_weight((*row)[0]);
    if (trace.prefix > 1)
        spec.note += ", on the other " + std::to_string(trace.prefix - 1) + " non-patch tokens " +
                     format_weight(row->segment(1, trace.prefix - 1).sum());
    spec.note += " (not in the map)";
    return spec;
}

}  // namespace app
