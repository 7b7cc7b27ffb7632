#include "session/lab/lab_run.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <sstream>

#include "vit/base/error.h"
#include "vit/base/read_file.h"
#include "vit/base/untrusted_json.h"
#include "vit/formats/model_files.h"
#include "vit/train/run_folder.h"

namespace fs = std::filesystem;

namespace session {
namespace {

constexpr size_t kMaxTextBytes = 4 << 20;  // config, log.csv, samples.csv: a few KB in a real run

std::vector<std::string> split(const std::string& line, char sep) {
    std::vector<std::string> out;
    std::string field;
    std::istringstream in(line);
    while (std::getline(in, field, sep)) out.push_back(field);
    if (!line.empty() && line.back() == sep) out.emplace_back();
    return out;
}

// A finite number written whole ("nan", "inf" and 1e999 are not: no run writes them).
double to_number(const std::string& text, const std::string& where) {
    try {
        size_t used = 0;
        const double v = std::stod(text, &used);
        if (used == text.size() && std::isfinite(v)) return v;
    } catch (const std::exception&) {
    }
    throw vit::Error(where + ": '" + vit::quote_for_error(text) + "' is not a number");
}

// A loss as train writes it: a mean cross-entropy, never negative, a float32's at most.
double loss_value(const std::string& text, const char* what, const std::string& where) {
    const double v = to_number(text, where);
    if (v < 0 || v > std::numeric_limits<float>::max())
        throw vit::Error(where + ": " + what + " '" + vit::quote_for_error(text) + "' is not a loss (0 or more)");
    return v;
}

std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\r' || s.back() == ' ')) s.pop_back();
    while (!s.empty() && s.front() == ' ') s.erase(0, 1);
    return s;
}

}  // namespace

std::string LabRun::checkpoint_dir(size_t index) const {
    return (fs::path(dir) / vit::train::step_folder_name(log.at(index).step)).string();
}

std::string LabRun::sample_path(size_t index) const { return (fs::path(dir) / "samples" / samples.at(index)).string(); }

size_t LabRun::checkpoint_at(int step) const {
    size_t at = 0;
    for (size_t i = 0; i < log.size(); ++i)
        if (log[i].step <= step) at = i;
    return at;
}

std::vector<vit::train::LogRow> parse_log_csv(const std::string& text, const std::string& where) {
    std::istringstream in(text);
    std::string line;
    if (!std::getline(in, line) || trimmed(line).rfind("step,loss,accuracy", 0) != 0)
        throw vit::Error(where + ": not a training log (its first line is not step,loss,accuracy,...)");
    std::vector<vit::train::LogRow> rows;
    for (int n = 2; std::getline(in, line); ++n) {
        line = trimmed(line);
        if (line.empty()) continue;
        const auto f = split(line, ',');
        const std::string at = where + ":" + std::to_string(n);
        if (f.size() < 3) throw vit::Error(at + ": fewer than 3 fields");
        vit::train::LogRow r;
        const double step = to_number(f[0], at);
        if (step < 0 || step > 1e7 || step != static_cast<int>(step))
            throw vit::Error(at + ": step '" + vit::quote_for_error(f[0]) + "' is not a step (a whole number from 0)");
        r.step = static_cast<int>(step);
        r.loss = loss_value(f[1], "loss", at);
        r.accuracy = to_number(f[2], at);
        if (r.accuracy < 0 || r.accuracy > 1)
            throw vit::Error(at + ": accuracy '" + vit::quote_for_error(f[2]) + "' is not between 0 and 1");
        if (f.size() > 3) r.train_loss = loss_value(f[3], "train_loss", at);
        r.fast = f.size() > 4 && f[4] == "fast";
        if (!rows.empty() && r.step <= rows.back().step)
            throw vit::Error(at + ": step " + std::to_string(r.step) + " after step " +
                             std::to_string(rows.back().step) + " (steps must increase)");
        rows.push_back(r);
    }
    if (rows.empty()) throw vit::Error(where + ": no checkpoints");
    return rows;
}

std::shared_ptr<const LabRun> read_lab_run(const std::string& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw vit::Error(dir + ": not a folder");
    if (!fs::exists(fs::path(dir) / "log.csv", ec))
        throw vit::Error(dir + ": not a training run (no log.csv; vitscope train -o RUN or the lab's Train make one)");
    auto run = std::make_shared<LabRun>();
    run->dir = fs::path(dir).lexically_normal().string();
    if (run->dir.size() > 1 && run->dir.back() == '/') run->dir.pop_back();

    const std::string config_path = (fs::path(dir) / "config").string();
    std::istringstream config(vit::read_whole_file(config_path, kMaxTextBytes, "a run's config"));
    std::string line;
    while (std::getline(config, line)) {
        const auto eq = line.find(" = ");
        if (eq == std::string::npos) continue;
        const std::string key = line.substr(0, eq), value = trimmed(line.substr(eq + 3));
        if (key == "task") run->task = value;
        else if (key == "position_embeddings") run->position = value.rfind("yes", 0) == 0;
        else if (key == "steps") {
            const double steps = to_number(value, config_path);
            if (steps < 0 || steps > 1e7 || steps != static_cast<int>(steps))
                throw vit::Error(config_path + ": steps '" + vit::quote_for_error(value) +
                                 "' is not a number of steps");
            run->steps = static_cast<int>(steps);
        }
    }
    if (run->task.empty()) throw vit::Error(config_path + ": no 'task = ' line");

    const std::string log_path = (fs::path(dir) / "log.csv").string();
    run->log = parse_log_csv(vit::read_whole_file(log_path, kMaxTextBytes, "a training log"), log_path);
    for (size_t i = 0; i < run->log.size(); ++i)
        if (!fs::is_regular_file(fs::path(run->checkpoint_dir(i)) / vit::kSafetensorsFileName, ec))
            throw vit::Error(run->checkpoint_dir(i) + ": the checkpoint log.csv names is missing");

    const std::string samples_path = (fs::path(dir) / "samples" / "samples.csv").string();
    std::istringstream samples(vit::read_whole_file(samples_path, kMaxTextBytes, "a run's samples.csv"));
    std::getline(samples, line);
    if (trimmed(line) != "file,label") throw vit::Error(samples_path + ": its first line is not file,label");
    while (std::getline(samples, line)) {
        line = trimmed(line);
        const auto comma = line.find(',');
        if (comma == std::string::npos) continue;
        const std::string file = line.substr(0, comma);
        if (file.find('/') != std::string::npos || file.empty() || file[0] == '.')
            throw vit::Error(samples_path + ": '" + vit::quote_for_error(file) + "' is not a file name in samples/");
        run->samples.push_back(file);
        run->sample_labels.push_back(line.substr(comma + 1));
    }
    if (run->samples.empty()) throw vit::Error(samples_path + ": no samples");
    return run;
}

std::string find_pair_run(const LabRun& run) {
    const fs::path self(run.dir);
    fs::path parent = self.parent_path();
    if (parent.empty()) parent = ".";
    std::error_code ec;
    std::string best;
    size_t best_common = 0;
    const std::string name = self.filename().string();
    std::vector<fs::path> folders;
    for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_directory(ec) && it->path().filename() != self.filename()) folders.push_back(it->path());
    std::sort(folders.begin(), folders.end());  // the same choice on every listing order
    for (const fs::path& p : folders) {
        if (!fs::exists(p / "log.csv", ec) || !fs::exists(p / "config", ec)) continue;
        try {
            const auto other = read_lab_run(p.string());
            // The same training with the other position setting: same task and steps (a shorter run is no pair).
            if (other->task != run.task || other->position == run.position || other->steps != run.steps) continue;
            const std::string n = p.filename().string();
            size_t common = 0;
            while (common < n.size() && common < name.size() && n[common] == name[common]) ++common;
            if (best.empty() || common > best_common) best = other->dir, best_common = common;
        } catch (const vit::Error&) {
        }
    }
    return best;
}

}  // namespace session
