#include "session/homework/handin.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

#include "session/homework/answer_key.h"
#include "session/homework/exercise_check.h"
#include "vit/base/error.h"

namespace session {
namespace {

std::vector<int> numbers(const std::string& text) {
    std::istringstream in(text);
    std::vector<int> out;
    for (std::string w; in >> w;) {
        try {
            size_t used = 0;
            const int v = std::stoi(w, &used);
            if (used != w.size()) return {};
            out.push_back(v);
        } catch (const std::exception&) {
            return {};
        }
    }
    return out;
}

std::vector<double> doubles(const std::string& text) {
    std::istringstream in(text);
    std::vector<double> out;
    for (double v; in >> v;) out.push_back(v);
    return out;
}

// Column name -> index, throwing naming the file and the missing column.
std::map<std::string, size_t> columns(const std::vector<std::string>& header, const std::vector<std::string>& need,
                                      const std::string& path, const std::string& what) {
    std::map<std::string, size_t> at;
    for (size_t i = 0; i < header.size(); ++i) at[header[i]] = i;
    for (const std::string& n : need)
        if (!at.count(n)) throw vit::Error(path + ": not " + what + " (no column '" + n + "')");
    return at;
}

}  // namespace

std::vector<std::vector<std::string>> parse_csv(const std::string& text, const std::string& what) {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false, any = false;
    int line = 1, quote_line = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
            else if (c == '"') quoted = false;
            else field += c, line += c == '\n';
            continue;
        }
        if (c == '"') quoted = true, quote_line = line, any = true;
        else if (c == ',') row.push_back(field), field.clear(), any = true;
        else if (c == '\n' || c == '\r') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
            if (any || !field.empty()) row.push_back(field), rows.push_back(row);
            row.clear(), field.clear(), any = false, ++line;
        } else field += c, any = true;
    }
    if (quoted) throw vit::Error(what + ":" + std::to_string(quote_line) + ": a quote that is never closed");
    if (any || !field.empty()) row.push_back(field), rows.push_back(row);
    return rows;
}

std::string fnv1a_hex(const std::string& text) {
    uint32_t h = 0x811c9dc5u;
    for (unsigned char b : text) h = (h ^ b) * 0x01000193u;
    char out[9];
    std::snprintf(out, sizeof out, "%08x", h);
    return out;
}

std::string choice_code(int exercise, const std::string& title, const std::vector<int>& options) {
    std::string text = "vitscope choice 1\n" + std::to_string(exercise) + "\n" + title + "\n";
    for (size_t i = 0; i < options.size(); ++i) text.append(i ? " " : "").append(std::to_string(options[i]));
    return fnv1a_hex(text);
}

Handin parse_handin(const std::string& text, const std::string& path) {
    const auto rows = parse_csv(text, path);
    if (rows.empty()) throw vit::Error(path + ": an empty file, not a hand-in");
    const auto at = columns(rows[0], {"student", "variant", "exercise", "answer", "correct", "code"}, path,
                            "a hand-in from a lesson page");
    Handin h;
    h.path = path;
    for (size_t r = 1; r < rows.size(); ++r) {
        const auto& f = rows[r];
        auto get = [&](const char* name) { return at.at(name) < f.size() ? f[at.at(name)] : std::string(); };
        const std::string where = path + ":" + std::to_string(r + 1) + ": ";
        if (r == 1) h.student = get("student"), h.variant = get("variant"), h.code = get("code");
        if (get("student") != h.student || get("variant") != h.variant || get("code") != h.code)
            throw vit::Error(where + "a row whose student, variant or code differs from the first row's");
        HandinRow row;
        const std::vector<int> n = numbers(get("exercise"));
        if (n.size() != 1) throw vit::Error(where + "exercise '" + get("exercise") + "' is not a number");
        row.exercise = n[0];
        row.kind = at.count("kind") ? get("kind") : "";
        row.answer = get("answer"), row.correct = get("correct");
        h.rows.push_back(row);
    }
    if (h.rows.empty()) throw vit::Error(path + ": a hand-in with no exercise in it");
    return h;
}

std::string handin_code(const Handin& h) {
    std::string text = "vitscope hand-in 1\n" + h.student + "\n" + h.variant;
    for (const HandinRow& r : h.rows)
        text.append("\n")
            .append(std::to_string(r.exercise))
            .append("\t")
            .append(r.answer)
            .append("\t")
            .append(r.correct);
    return fnv1a_hex(text);
}

std::map<std::pair<std::string, int>, KeyRow> parse_key(const std::string& text, const std::string& path) {
    const auto rows = parse_csv(text, path);
    if (rows.empty()) throw vit::Error(path + ": an empty file, not an answer key");
    const auto at =
        columns(rows[0], {"exercise", "kind", "query", "query_patch", "answer", "accepted", "tolerance", "weights"},
                path, "an answer key from vitscope exercises --key");
    std::map<std::pair<std::string, int>, KeyRow> key;
    for (size_t r = 1; r < rows.size(); ++r) {
        const auto& f = rows[r];
        auto get = [&](const char* name) {
            return at.count(name) && at.at(name) < f.size() ? f[at.at(name)] : std::string();
        };
        KeyRow k;
        const std::vector<int> n = numbers(get("exercise"));
        if (n.size() != 1) throw vit::Error(path + ":" + std::to_string(r + 1) + ": exercise is not a number");
        k.exercise = n[0];
        if (at.count("variant") && !get("variant").empty()) k.variant = get("variant");
        k.kind = get("kind"), k.answer = get("answer"), k.accepted = get("accepted"), k.tolerance = get("tolerance");
        k.weights = get("weights"), k.query_patch = get("query_patch");
        const std::vector<int> q = numbers(get("query"));
        k.query = q.size() == 1 ? q[0] : -1;
        key[{k.variant, k.exercise}] = k;
    }
    return key;
}

bool answer_is_right(const KeyRow& k, const std::string& answer) {
    if (answer.empty()) return false;
    if (k.kind == "top_key") {
        const std::vector<int> given = numbers(answer), accepted = numbers(k.accepted);
        return given.size() == 1 && std::find(accepted.begin(), accepted.end(), given[0]) != accepted.end();
    }
    if (k.kind == "choice") {
        std::vector<int> given = numbers(answer), right = numbers(k.accepted);
        std::sort(given.begin(), given.end());
        given.erase(std::unique(given.begin(), given.end()), given.end());
        return !given.empty() && given == right;
    }
    if (k.kind == "predict_region") {
        // The window's and the page's score (vit::score_prediction) on the key's patch weights.
        const std::vector<double> w = doubles(k.weights);
        const int grid = static_cast<int>(std::lround(std::sqrt(static_cast<double>(w.size()))));
        int row = -1, col = -1;
        if (grid * grid != static_cast<int>(w.size()) ||
            std::sscanf(k.query_patch.c_str(), "(%d, %d)", &row, &col) != 2)
            return false;
        const int prefix = k.query - (row * grid + col);
        std::set<int> marked;
        for (int j : numbers(answer))
            if (j >= prefix && j < prefix + grid * grid) marked.insert(j - prefix);
        if (marked.empty()) return false;
        double on_marked = 0, on_patches = 0;
        for (size_t i = 0; i < w.size(); ++i)
            on_patches += w[i], on_marked += marked.count(static_cast<int>(i)) ? w[i] : 0;
        const double even = static_cast<double>(marked.size()) / w.size() * on_patches;
        return even > 0 && on_marked / even >= std::stod(k.tolerance);
    }
    // The numeric kinds: read as the page reads a typed number, within the key's interval.
    const TypedNumber n = parse_answer_number(answer, k.kind == "weight");
    const std::vector<double> range = doubles(k.accepted);
    return n.error.empty() && range.size() == 2 && n.value >= range[0] && n.value <= range[1];
}

Grade grade_handin(const Handin& h, const std::map<std::pair<std::string, int>, KeyRow>& key) {
    Grade g;
    g.student = h.student, g.variant = h.variant, g.path = h.path;
    g.code_ok = handin_code(h) == h.code;
    std::map<int, const HandinRow*> by_exercise;
    for (const HandinRow& r : h.rows) {
        if (!key.count({h.variant, r.exercise}))
            g.problems.push_back("exercise " + std::to_string(r.exercise) + " of variant " + h.variant +
                                 " is not in the key");
        else by_exercise[r.exercise] = &r;
    }
    for (const auto& [id, k] : key) {
        if (id.first != h.variant) continue;
        const auto it = by_exercise.find(id.second);
        int mark = 0;
        if (it != by_exercise.end()) {
            if (!it->second->kind.empty() && it->second->kind != k.kind)
                g.problems.push_back("exercise " + std::to_string(id.second) + " is " + it->second->kind +
                                     " in the hand-in, " + k.kind + " in the key");
            else mark = answer_is_right(k, it->second->answer) ? 1 : 0;
        }
        g.marks.push_back(mark);
        g.total += mark;
    }
    if (g.marks.empty()) g.problems.push_back("the key has no variant " + h.variant);
    return g;
}

std::string grades_csv(const std::vector<Grade>& grades, const std::map<std::pair<std::string, int>, KeyRow>& key) {
    int most = 0;
    std::map<std::string, int> per_variant;
    for (const auto& [id, k] : key) most = std::max(most, ++per_variant[id.first]);
    std::string csv = "student,variant,handin,code";
    for (int i = 1; i <= most; ++i) csv.append(",").append(std::to_string(i));
    csv += ",total,out_of\n";
    for (const Grade& g : grades) {
        std::string line = csv_field(g.student) + "," + csv_field(g.variant) + "," + csv_field(g.path) + "," +
                           (g.code_ok ? "ok" : "MISMATCH");
        for (int i = 0; i < most; ++i)
            line.append(",").append(
                i < static_cast<int>(g.marks.size()) ? std::to_string(g.marks[static_cast<size_t>(i)]) : std::string());
        csv += line + "," + std::to_string(g.total) + "," + std::to_string(g.marks.size()) + "\n";
    }
    return csv;
}

}  // namespace session
