#include "app/gui/worksheet_content.h"

#include <filesystem>

#include "app/gui/lesson_page.h"
#include "vit/base/error.h"

namespace app {

WorksheetContent worksheet_content(const session::AppState& s, const session::ExerciseSet& set,
                                   const std::vector<session::ExerciseAnswer>& answers) {
    if (!s.loaded.ready()) throw vit::Error("no photo and model to make a worksheet of");
    const vit::Trace& t = *s.loaded.trace;
    WorksheetContent c;
    c.title = set.tour->title;
    c.photo_name = std::filesystem::path(s.loaded.image_path).filename().string();
    c.grid = t.grid;
    const int input_size = s.loaded.input ? s.loaded.input->size : s.loaded.model->config.pre.input_size;
    c.photo = photo_crop_square(*s.loaded.image, s.loaded.crop, input_size);
    for (const session::ExerciseAnswer& a : answers) {
        const session::Exercise& e = set.exercises[static_cast<size_t>(a.exercise - 1)];
        WorksheetItem item;
        item.exercise = a.exercise;
        item.kind = a.kind;
        item.title = set.tour->steps[static_cast<size_t>(a.exercise - 1)].title;
        item.text = a.text;
        item.given = session::worksheet_numbers(t, e, a);
        switch (a.kind) {
            case session::ExerciseKind::TopKey:
                item.photo = true;
                item.how =
                    "Cross the key's patch on the grid (row 0 at the top, column 0 at the left), or tick: "
                    "\xE2\x98\x90 CLS";
                break;
            case session::ExerciseKind::PredictRegion:
                item.photo = true;
                item.how = "Shade the patches you expect the query to weigh.";
                break;
            case session::ExerciseKind::Choice:
                item.options = e.options;
                item.how = e.answers.size() > 1 ? "Tick every right option (more than one is)." : "Tick one option.";
                break;
            default:
                item.how = "Answer (" + session::precision_text(session::precision_of(e)) +
                           (a.kind == session::ExerciseKind::Weight ? ", or a percentage" : "") + "):";
                break;
        }
        if (item.photo && t.is_patch(a.query)) item.query_row = t.row_of(a.query), item.query_col = t.col_of(a.query);
        c.items.push_back(std::move(item));
    }
    return c;
}

}  // namespace app
