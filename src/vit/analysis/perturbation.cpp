#include "vit/analysis/perturbation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "vit/base/error.h"

namespace vit {

std::vector<int> patch_ranking(const Eigen::VectorXd& s, bool most_first) {
    std::vector<int> order(s.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return most_first ? s[a] > s[b] : s[a] < s[b]; });
    return order;
}

Eigen::VectorXd random_scores(int patches, uint32_t seed) {
    std::mt19937 generator(seed);
    Eigen::VectorXd s(patches);
    for (int p = 0; p < patches; ++p) s[p] = static_cast<double>(generator());
    return s;
}

int patches_removed(int step, int patches) { return step * patches / kPerturbationSteps; }

double curve_area(const std::vector<double>& p) {
    double area = 0;
    for (size_t i = 1; i < p.size(); ++i) area += 0.5 * (p[i - 1] + p[i]) / kPerturbationSteps;
    return area;
}

std::vector<NamedMap> perturbation_maps(const RelevanceMaps& m, uint32_t seed) {
    if (m.cancelled) throw Error("the occlusion map is incomplete: it was cancelled");
    return {{"attention_last", m.attention_last},
            {"rollout", m.rollout},
            {"grad_rollout", m.grad_rollout},
            {"occlusion", m.occlusion},
            {"random", random_scores(static_cast<int>(m.occlusion.size()), seed)}};
}

PerturbationTest perturbation_test(const Model& model, const Input& input, int target_class,
                                   double probability_of_photo, const std::vector<NamedMap>& maps,
                                   const TaskControl& control) {
    const int grid = input.size / model.patch, patches = grid * grid;
    PerturbationTest test;
    test.total = static_cast<int>(maps.size()) * 2 * (kPerturbationSteps - 1);
    for (const NamedMap& map : maps) {
        if (map.scores.size() != patches) throw Error("the " + map.method + " map does not cover the patch grid");
        for (bool positive : {true, false}) {
            PerturbationCurve curve{map.method, positive, {probability_of_photo}, 0};
            const std::vector<int> order = patch_ranking(map.scores, positive);
            for (int step = 1; step < kPerturbationSteps; ++step) {
                if (control.cancelled()) {
                    test.cancelled = true;
                    test.curves.push_back(curve);
                    return test;
                }
                const std::vector<int> removed(order.begin(), order.begin() + patches_removed(step, patches));
                curve.probability.push_back(
                    class_probability(model, without_patches(input, model.patch, removed), target_class));
                control.report(++test.done, test.total);
            }
            curve.area = curve_area(curve.probability);
            test.curves.push_back(curve);
        }
    }
    return test;
}

double area_of(const PerturbationTest& test, const std::string& method, bool positive) {
    for (const PerturbationCurve& c : test.curves)
        if (c.method == method && c.positive == positive && c.probability.size() == kPerturbationSteps) return c.area;
    return std::numeric_limits<double>::quiet_NaN();
}

PerturbationVerdict judge(const PerturbationTest& test) {
    PerturbationVerdict v;
    v.random_positive = area_of(test, "random", true);
    v.random_negative = area_of(test, "random", false);
    double best_pos = v.random_positive, best_neg = v.random_negative;
    for (const PerturbationCurve& c : test.curves) {
        if (c.method == "random" || c.probability.size() != kPerturbationSteps) continue;
        if (c.positive && c.area < best_pos) best_pos = c.area, v.best_positive = c.method;
        if (!c.positive && c.area > best_neg) best_neg = c.area, v.best_negative = c.method;
        if (!c.positive && c.area > v.random_negative && area_of(test, c.method, true) < v.random_positive)
            v.beat_random_both.push_back(c.method);
    }
    return v;
}

PerturbationWinner clear_winner(const PerturbationTest& test, bool positive, const std::vector<double>& random) {
    PerturbationWinner w;
    w.positive = positive;
    w.random_areas = random;
    // Better: lower area in the positive order, higher in the negative.
    const auto better = [&](double a, double b) { return positive ? a < b : a > b; };
    bool have_best = false, have_runner = false;
    for (const PerturbationCurve& c : test.curves) {
        if (c.method == "random" || c.positive != positive || c.probability.size() != kPerturbationSteps) continue;
        if (!have_best || better(c.area, w.best_area)) {
            if (have_best) w.runner_up = w.best, w.runner_up_area = w.best_area, have_runner = true;
            w.best = c.method, w.best_area = c.area, have_best = true;
        } else if (!have_runner || better(c.area, w.runner_up_area)) {
            w.runner_up = c.method, w.runner_up_area = c.area, have_runner = true;
        }
    }
    std::vector<double> finite;
    for (double a : random)
        if (std::isfinite(a)) finite.push_back(a);
    if (!have_best || !have_runner || finite.empty()) return w;
    const auto [lo, hi] = std::minmax_element(finite.begin(), finite.end());
    w.random_spread = *hi - *lo;
    w.random_best = positive ? *lo : *hi;
    w.margin = std::max(kWinnerShare * std::abs(w.runner_up_area), w.random_spread);
    const double ahead_of_runner = positive ? w.runner_up_area - w.best_area : w.best_area - w.runner_up_area;
    const double ahead_of_random = positive ? w.random_best - w.best_area : w.best_area - w.random_best;
    if (ahead_of_runner >= w.margin && ahead_of_random >= w.margin) w.winner = w.best;
    return w;
}

std::vector<double> random_areas(const RelevanceStudy& study, bool positive) {
    std::vector<double> out;
    for (const PerturbationTest* t : {&study.test, &study.random_seeds})
        for (const PerturbationCurve& c : t->curves)
            if (c.method == "random" && c.positive == positive && c.probability.size() == kPerturbationSteps)
                out.push_back(c.area);
    return out;
}

int relevance_study_forwards(int patches) { return patches + (5 + kRandomSeeds - 1) * 2 * (kPerturbationSteps - 1); }

RelevanceStudy relevance_study(const Model& model, const Input& input, const Trace& trace, int target_class,
                               uint32_t seed, const TaskControl& control) {
    RelevanceStudy study;
    study.seed = seed;
    const int patches = trace.grid * trace.grid;
    const int total = relevance_study_forwards(patches);
    TaskControl maps_control{[&](int done, int) { control.report(done, total); }, control.cancel};
    study.maps = relevance_maps(model, input, trace, target_class, maps_control);
    if (study.maps.cancelled) {
        study.cancelled = true;
        return study;
    }
    TaskControl curves_control{[&](int done, int) { control.report(patches + done, total); }, control.cancel};
    study.test = perturbation_test(model, input, target_class, study.maps.probability,
                                   perturbation_maps(study.maps, seed), curves_control);
    study.cancelled = study.test.cancelled;
    if (study.cancelled) return study;
    std::vector<NamedMap> randoms;
    for (int k = 1; k < kRandomSeeds; ++k)
        randoms.push_back({"random", random_scores(patches, seed + static_cast<uint32_t>(k))});
    const int before = patches + study.test.total;
    TaskControl seeds_control{[&](int done, int) { control.report(before + done, total); }, control.cancel};
    study.random_seeds = perturbation_test(model, input, target_class, study.maps.probability, randoms, seeds_control);
    study.cancelled = study.random_seeds.cancelled;
    return study;
}

}  // namespace vit
