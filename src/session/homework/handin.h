// Grading the hand-ins a lesson page writes ("Download my answers",
// web/lesson/lesson_homework.js) against the answer key (answer_key.h):
// every verdict recomputed from the answers as typed and the key's accepted
// answers, never from the hand-in's `correct` column, and each hand-in's
// verification code recomputed (lesson_math.js handinCode: FNV-1a 32 over
// the name, the variant and every row's exercise, answer and verdict), so a
// hand-in edited after the page wrote it is flagged. The code catches an edit
// in a spreadsheet, not a forger who reads the page's script.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace session {

// RFC 4180 CSV: fields with quotes, doubled quotes, commas and line breaks.
// Throws vit::Error naming `what` and the line on an unclosed quote.
std::vector<std::vector<std::string>> parse_csv(const std::string& text, const std::string& what);

// FNV-1a, 32 bits, over the bytes of text, as 8 lower-case hex digits.
std::string fnv1a_hex(const std::string& text);

// How the lesson page holds a choice's right options (ascending) without
// showing them: FNV-1a of "vitscope choice 1", the exercise, its title and
// the options (lesson_math.js choiceCode). It keeps the answer out of the
// page's source, not from a student who tries every choice with a script.
std::string choice_code(int exercise, const std::string& title, const std::vector<int>& options);

struct HandinRow {
    int exercise = 0;
    std::string kind, answer, correct;
};
struct Handin {
    std::string path, student, variant, code;
    std::vector<HandinRow> rows;
};
// Throws vit::Error naming the file when it is not a hand-in (its header, a
// row's student or variant differing from the first's, an exercise not a number).
Handin parse_handin(const std::string& text, const std::string& path);
// The code the page would have written for this hand-in.
std::string handin_code(const Handin& h);

// One row of the answer key, as --grade reads it.
struct KeyRow {
    int exercise = 0;
    std::string variant = "1";
    std::string kind, answer, accepted, tolerance, weights;
    int query = -1;
    std::string query_patch;
};
// Keyed by (variant, exercise). Throws vit::Error naming the file when a column is missing.
std::map<std::pair<std::string, int>, KeyRow> parse_key(const std::string& text, const std::string& path);

// Whether `answer` (as the hand-in holds it) is right by the key's row; empty: not answered.
bool answer_is_right(const KeyRow& k, const std::string& answer);

struct Grade {
    std::string student, variant, path;
    bool code_ok = false;
    std::vector<int> marks;  // per exercise of the key's variant, in order: 1 right, 0 not
    int total = 0;
    std::vector<std::string> problems;  // an exercise the key lacks, a kind that differs: one line each
};
Grade grade_handin(const Handin& h, const std::map<std::pair<std::string, int>, KeyRow>& key);

// The grade table: student,variant,handin,code,ex1..exN,total,out_of (N: the key's exercises).
std::string grades_csv(const std::vector<Grade>& grades, const std::map<std::pair<std::string, int>, KeyRow>& key);

}  // namespace session
