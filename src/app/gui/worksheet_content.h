// What a paper worksheet holds (vitscope exercises IMAGE -o SHEET.html|.pdf|.png),
// whatever it is printed as: per exercise its question, the numbers a student
// needs to answer it with a calculator (worksheet_numbers.h), the photo and grid
// to mark where the kind needs it, and how to answer on paper. No answer.
#pragma once
#include <string>
#include <vector>

#include "session/homework/exercises.h"
#include "session/homework/worksheet_numbers.h"
#include "session/state/app_state.h"
#include "vit/image/image.h"

namespace app {

struct WorksheetItem {
    int exercise = 0;  // 1-based, as in the key
    session::ExerciseKind kind = session::ExerciseKind::Choice;
    std::string title;
    std::vector<std::string> text;  // the question, numbers filled in
    std::vector<session::GivenNumber> given;
    bool photo = false;  // the photo with the grid, the query outlined (top_key, predict_region)
    int query_row = -1, query_col = -1;
    std::string how;                   // how to answer on paper, one line
    std::vector<std::string> options;  // choice
};

struct WorksheetContent {
    std::string title, photo_name;
    int grid = 0;
    vit::Image photo;  // the model input's crop, square
    std::vector<WorksheetItem> items;
};

WorksheetContent worksheet_content(const session::AppState& s, const session::ExerciseSet& set,
                                   const std::vector<session::ExerciseAnswer>& answers);

}  // namespace app
