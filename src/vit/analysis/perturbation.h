// Perturbation tests (Chefer, Gur & Wolf 2021, after Samek et al.): remove
// patches in the order a map ranks them and watch the class's probability.
// A map that explains the prediction loses it fast when its most relevant
// patches go first (positive order: lower area is better) and keeps it when
// its least relevant go first (negative order: higher area is better).
// Removal sets the patch's pixels to 0 in the normalised input; fractions
// 0, 0.1, ..., 0.9 of the patches (floor(i * patches / 10) removed at step i);
// the area under each curve by the trapezoid rule over those ten points.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "vit/base/task_control.h"
#include "vit/analysis/relevance.h"

namespace vit {

inline constexpr int kPerturbationSteps = 10;  // fractions 0.0 .. 0.9

// Patch indices from the highest score to the lowest (most_first) or the
// lowest to the highest; equal scores keep patch (token) order either way.
std::vector<int> patch_ranking(const Eigen::VectorXd& scores, bool most_first);
// One score per patch from std::mt19937(seed)'s first outputs: the random
// baseline's ranking, the same for the same seed everywhere.
Eigen::VectorXd random_scores(int patches, uint32_t seed);
// Patches removed at step i (0 .. kPerturbationSteps - 1).
int patches_removed(int step, int patches);
// Trapezoid rule over the steps, dx = 1 / kPerturbationSteps.
double curve_area(const std::vector<double>& probability);

struct NamedMap {
    std::string method;      // "attention_last", "rollout", "grad_rollout", "occlusion", "random"
    Eigen::VectorXd scores;  // one per patch
};
// The maps of relevance_maps plus the seeded random one, in the CLI's order.
std::vector<NamedMap> perturbation_maps(const RelevanceMaps& maps, uint32_t seed);

struct PerturbationCurve {
    std::string method;
    bool positive = true;             // most relevant removed first
    std::vector<double> probability;  // p(class) at each step (fewer when cancelled)
    double area = 0;                  // curve_area of a complete curve
};
struct PerturbationTest {
    std::vector<PerturbationCurve> curves;  // per map: positive, then negative
    int done = 0, total = 0;                // forward passes
    bool cancelled = false;
};

// probability_of_photo: p(class) with nothing removed (step 0 of every curve).
PerturbationTest perturbation_test(const Model& model, const Input& input, int target_class,
                                   double probability_of_photo, const std::vector<NamedMap>& maps,
                                   const TaskControl& control = {});

// What the curves say against the fair baseline, the random order: a map
// earns its place only by beating it (positive area lower, negative higher).
struct PerturbationVerdict {
    std::string best_positive, best_negative;  // among the maps (random excluded); empty when none beats random
    double random_positive = 0, random_negative = 0;
    std::vector<std::string> beat_random_both;  // maps better than random in both orders, in the maps' order
};
PerturbationVerdict judge(const PerturbationTest& test);
// The area of method's curve in that order; NaN when it was not completed.
double area_of(const PerturbationTest& test, const std::string& method, bool positive);

// A winner among the maps in one order, named only when it is clearly ahead.
// The margin = the larger of kWinnerShare of the runner-up's area and the
// random order's spread (largest - smallest area over its seeds); the best
// map is the winner only when it beats the runner-up map by at least the
// margin and every random seed's area by at least the margin too (lower area
// in the positive order, higher in the negative). Otherwise "no clear winner".
inline constexpr double kWinnerShare = 0.10;  // 10 % of the area
inline constexpr int kRandomSeeds = 5;        // the random order's seeds: seed, seed + 1, ...
struct PerturbationWinner {
    bool positive = true;
    std::string best, runner_up;  // the two best maps (random excluded); empty when not completed
    double best_area = 0, runner_up_area = 0;
    std::vector<double> random_areas;  // one per seed
    double random_spread = 0;          // largest - smallest of random_areas
    double random_best = 0;            // the best random area (lowest positive, highest negative)
    double margin = 0;                 // max(kWinnerShare * runner_up_area, random_spread)
    std::string winner;                // best when it is clear by the margin; else empty: no clear winner
};
// random_areas: the random order's area in this order for each seed.
PerturbationWinner clear_winner(const PerturbationTest& test, bool positive, const std::vector<double>& random_areas);

// The page's whole computation: the four maps (one backward, one forward per
// patch) and the perturbation curves, with progress over every forward pass
// and Cancel between them.
struct RelevanceStudy {
    RelevanceMaps maps;
    PerturbationTest test;
    // The random order again with seeds seed + 1 .. seed + kRandomSeeds - 1: its spread over seeds.
    PerturbationTest random_seeds;
    uint32_t seed = 0;
    bool cancelled = false;
};
// The random order's area in this order for every seed the study ran (test's, then random_seeds').
std::vector<double> random_areas(const RelevanceStudy& study, bool positive);
// Forward passes relevance_study runs for this many patches (occlusion, the curves, the other random seeds).
int relevance_study_forwards(int patches);
RelevanceStudy relevance_study(const Model& model, const Input& input, const Trace& trace, int target_class,
                               uint32_t seed, const TaskControl& control = {});

}  // namespace vit
