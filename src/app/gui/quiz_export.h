// The homework as a quiz a school's LMS imports (vitscope exercises IMAGE
// --moodle QUIZ.xml | --gift QUIZ.txt; issue 50, item 6).
//
// Moodle XML (docs.moodle.org/en/Moodle_XML_format): a question bank, one
// category per exercise ("$course$/vitscope/PHOTO/N. TITLE") holding one
// question per variant, so a quiz's "random question from category" gives
// each student one variant. Numeric kinds are `numerical` questions (the
// answer, its tolerance as an absolute number on that photo); choice and
// top_key are `multichoice` (top_key's options: the keys the worksheet
// prints, the accepted ones right; several right options share the marks and
// a wrong tick costs them); each question that asks about the photo embeds
// it with the patch grid, rows and columns numbered and the query outlined
// (a PNG, @@PLUGINFILE@@). The numbers to answer by calculator are in the
// question's text, as on the paper worksheet. predict_region is left out (an
// LMS has no question that marks a region on a photo); the export says so.
//
// GIFT (docs.moodle.org/en/GIFT_format): the same questions as text, without
// the images (GIFT carries no files); each variant's questions under
// `$CATEGORY:`.
#pragma once
#include <string>
#include <vector>

#include "session/homework/exercises.h"
#include "session/state/app_state.h"

namespace app {

struct QuizVariant {
    int variant = 1;
    session::ExerciseSet set;
    std::vector<session::ExerciseAnswer> answers;
};

struct Quiz {
    std::string text;
    int questions = 0, left_out = 0;  // written; predict_region left out
};

Quiz moodle_xml(const session::AppState& s, const std::vector<QuizVariant>& variants);
Quiz gift(const session::AppState& s, const std::vector<QuizVariant>& variants);

}  // namespace app
