#include "app/gui/quiz_export.h"

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "app/gui/html_escaped.h"
#include "app/gui/lesson_page.h"
#include "app/gui/worksheet_print.h"
#include "session/homework/page_rows.h"
#include "session/homework/worksheet_numbers.h"
#include "vit/base/base64.h"
#include "vit/forward/token_name.h"

namespace app {
namespace {

constexpr int kImageSide = 420;  // pixels: legible in a quiz page, small in the bank

std::string number(double v, const char* format = "%.9g") {
    char text[64];
    std::snprintf(text, sizeof text, format, v);
    return text;
}

// Moodle's multichoice fractions: k right options share 100 % as one of its allowed values.
std::string share(size_t k) {
    static const char* shares[] = {"100", "100", "50", "33.33333", "25", "20", "16.66667", "14.28571", "12.5"};
    return k < 9 ? shares[k] : number(100.0 / static_cast<double>(k), "%.5f");
}

// One question's parts, whatever the format writes them as.
struct Question {
    std::string category, name, kind;  // kind: numerical or multichoice
    std::vector<std::string> text;     // paragraphs, plain
    std::vector<session::GivenNumber> given;
    bool photo = false;
    int query_row = -1, query_col = -1;
    double answer = 0, tolerance = 0;  // numerical
    std::vector<std::string> options;  // multichoice
    std::vector<bool> right;           // multichoice, per option
};

std::vector<Question> questions(const session::AppState& s, const std::vector<QuizVariant>& variants, int& left_out) {
    const vit::Trace& t = *s.loaded.trace;
    const std::string photo = std::filesystem::path(s.loaded.image_path).filename().string();
    std::vector<Question> out;
    left_out = 0;
    for (const QuizVariant& v : variants)
        for (const session::ExerciseAnswer& a : v.answers) {
            const session::Exercise& e = v.set.exercises[static_cast<size_t>(a.exercise - 1)];
            const std::string title = v.set.tour->steps[static_cast<size_t>(a.exercise - 1)].title;
            if (a.kind == session::ExerciseKind::PredictRegion) {
                ++left_out;
                continue;
            }
            Question q;
            q.category = "$course$/vitscope/" + photo + "/" + std::to_string(a.exercise) + ". " + title;
            q.name = std::to_string(a.exercise) + ". " + title + " (" + photo + ", variant " +
                     std::to_string(v.variant) + ")";
            q.text = a.text;
            q.given = session::worksheet_numbers(t, e, a);
            q.photo = a.layer >= 0;
            if (t.is_patch(a.query)) q.query_row = t.row_of(a.query), q.query_col = t.col_of(a.query);
            if (session::numeric_kind(a.kind)) {
                q.kind = "numerical";
                q.answer = a.value;
                q.tolerance = session::tolerance_for(e, a.value);
                q.text.push_back("Answer to " + session::precision_text(session::precision_of(e)) + ".");
            } else if (a.kind == session::ExerciseKind::Choice) {
                q.kind = "multichoice";
                q.options = e.options;
                for (size_t i = 0; i < e.options.size(); ++i)
                    q.right.push_back(std::find(a.options.begin(), a.options.end(), static_cast<int>(i) + 1) !=
                                      a.options.end());
            } else {  // top_key: the keys the worksheet prints, the accepted ones right
                q.kind = "multichoice";
                const std::vector<int> accepted = session::page_top_keys(t, a);
                for (const session::GivenNumber& g : q.given) {
                    const size_t at = g.name.find('@');
                    if (at == std::string::npos) continue;
                    const int token = std::stoi(g.name.substr(at + 1));
                    q.options.push_back(vit::token_name(t, token));
                    q.right.push_back(token == a.key ||
                                      std::find(accepted.begin(), accepted.end(), token) != accepted.end());
                }
            }
            out.push_back(std::move(q));
        }
    return out;
}

std::string cdata(const std::string& html) {
    std::string out = "<![CDATA[";
    for (size_t from = 0;;) {  // "]]>" cannot sit inside a CDATA section
        const size_t at = html.find("]]>", from);
        out += html.substr(from, at - from);
        if (at == std::string::npos) break;
        out += "]]]]><![CDATA[>";
        from = at + 3;
    }
    return out + "]]>";
}

std::string xml_text(const std::string& s) { return "<text>" + html_escaped(s) + "</text>"; }

// GIFT's special characters escaped: ~ = # { } : and the backslash.
std::string gift_escaped(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '~' || c == '=' || c == '#' || c == '{' || c == '}' || c == ':' || c == '\\') out += '\\';
        out += c == '\n' ? ' ' : c;
    }
    return out;
}

}  // namespace

Quiz moodle_xml(const session::AppState& s, const std::vector<QuizVariant>& variants) {
    Quiz quiz;
    const std::vector<Question> qs = questions(s, variants, quiz.left_out);
    const int input_size = s.loaded.input ? s.loaded.input->size : s.loaded.model->config.pre.input_size;
    const vit::Image photo = photo_crop_square(*s.loaded.image, s.loaded.crop, input_size);
    const vit::Trace& t = *s.loaded.trace;
    std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<quiz>\n";
    std::string category;
    int n = 0;
    for (const Question& q : qs) {
        if (q.category != category) {
            category = q.category;
            xml += "<question type=\"category\">\n<category>" + xml_text(category) + "</category>\n</question>\n";
        }
        std::string html;
        for (const std::string& p : q.text) html += "<p>" + html_escaped(p) + "</p>";
        if (!q.given.empty()) {
            html += "<table><caption>The numbers you need</caption>";
            for (const session::GivenNumber& g : q.given)
                html += "<tr><td>" + html_escaped(g.label) + "</td><td>" + g.shown + "</td></tr>";
            html += "</table>";
        }
        std::string file;
        if (q.photo) {
            const std::string name = "photo-" + std::to_string(++n) + ".png";
            html += "<p><img src=\"@@PLUGINFILE@@/" + name + "\" alt=\"the photo, patches numbered (row, column), " +
                    "the query outlined in blue\"></p>";
            file = "<file name=\"" + name + "\" path=\"/\" encoding=\"base64\">" +
                   vit::base64_encode(photo_grid_png(photo, t.grid, q.query_row, q.query_col, kImageSide)) + "</file>";
        }
        xml += "<question type=\"" + q.kind + "\">\n<name>" + xml_text(q.name) +
               "</name>\n<questiontext format=\"html\"><text>" + cdata(html) + "</text>" + file +
               "</questiontext>\n<generalfeedback format=\"html\"><text></text></generalfeedback>\n"
               "<defaultgrade>1</defaultgrade>\n<penalty>0</penalty>\n<hidden>0</hidden>\n";
        if (q.kind == "numerical") {
            xml += "<answer fraction=\"100\"><text>" + number(q.answer) + "</text><tolerance>" + number(q.tolerance) +
                   "</tolerance><feedback format=\"html\"><text></text></feedback></answer>\n";
        } else {
            size_t right = 0;
            for (bool r : q.right) right += r;
            xml += std::string("<single>") + (right == 1 ? "true" : "false") +
                   "</single>\n<shuffleanswers>0</shuffleanswers>\n<answernumbering>123</answernumbering>\n";
            for (size_t i = 0; i < q.options.size(); ++i)
                xml += "<answer fraction=\"" +
                       std::string(q.right[i]   ? share(right)
                                   : right == 1 ? "0"
                                                : "-100") +
                       "\" format=\"html\">" + xml_text(q.options[i]) +
                       "<feedback format=\"html\"><text></text></feedback></answer>\n";
        }
        xml += "</question>\n";
        ++quiz.questions;
    }
    quiz.text = xml + "</quiz>\n";
    return quiz;
}

Quiz gift(const session::AppState& s, const std::vector<QuizVariant>& variants) {
    Quiz quiz;
    const std::vector<Question> qs = questions(s, variants, quiz.left_out);
    std::string out = "// vitscope homework (GIFT: no images; Moodle XML carries the photo)\n\n";
    std::string category;
    for (const Question& q : qs) {
        if (q.category != category) {
            category = q.category;
            out += "$CATEGORY: " + category + "\n\n";
        }
        std::string text;
        for (const std::string& p : q.text) text += (text.empty() ? "" : " ") + p;
        for (const session::GivenNumber& g : q.given) text += " " + g.label + ": " + g.shown + ".";
        out += "::" + gift_escaped(q.name) + "::" + gift_escaped(text) + " {";
        if (q.kind == "numerical") {
            out += "#" + number(q.answer) + ":" + number(q.tolerance);
        } else {
            size_t right = 0;
            for (bool r : q.right) right += r;
            for (size_t i = 0; i < q.options.size(); ++i) {
                if (right == 1) out += q.right[i] ? "\n  =" : "\n  ~";
                else out += std::string("\n  ~%") + (q.right[i] ? share(right) : "-100") + "%";
                out += gift_escaped(q.options[i]);
            }
            out += "\n";
        }
        out += "}\n\n";
        ++quiz.questions;
    }
    quiz.text = out;
    return quiz;
}

}  // namespace app
