#include "app/gui/frame_stats.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "vit/base/atomic_file.h"

namespace app {
namespace {

nlohmann::json summary(std::vector<double> v) {
    nlohmann::json j;
    j["frames"] = v.size();
    if (v.empty()) return j;
    double sum = 0;
    for (double x : v) sum += x;
    std::sort(v.begin(), v.end());
    j["mean_ms"] = sum / v.size();
    j["p95_ms"] = v[std::min(v.size() - 1, static_cast<size_t>(0.95 * v.size()))];
    j["max_ms"] = v.back();
    return j;
}

}  // namespace

void FrameStats::write(const std::string& path, int w, int h) {
    // The first frames build fonts and shaders; they say nothing about steady use.
    const size_t first = std::min<size_t>(ms.size(), 10);
    std::vector<double> all(ms.begin() + first, ms.end()), busy, idle;
    for (size_t i = first; i < ms.size(); ++i) (beside_work[i] ? busy : idle).push_back(ms[i]);
    nlohmann::json j = summary(all);
    j["window"] = {w, h};
    j["while_experiments_run"] = summary(busy);
    j["otherwise"] = summary(idle);
    j.update(interaction.json());
    vit::write_file_atomic(path, j.dump(2) + "\n");
}

}  // namespace app
