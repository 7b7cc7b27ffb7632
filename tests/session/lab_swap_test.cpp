// "Swap the squares" (src/session/lab/lab_swap.h): the swapped image exchanges
// exactly the two patches, and a model without position embeddings (even an
// untrained one) gives the class token the same output to float rounding on
// 50 samples, while one with positions does not.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "session/lab/lab_swap.h"
#include "session/lab/lab_view.h"
#include "vit/formats/checkpoint.h"
#include "vit/train/checkpoint_io.h"
#include "vit/train/tasks.h"
#include "vit/train/trainer.h"

namespace fs = std::filesystem;
using namespace session;

namespace {

vit::Model untrained(bool position, const fs::path& dir) {
    vit::train::TrainSettings s;
    s.task = vit::train::Task::LeftOf;
    s.model.position = position;
    fs::create_directories(dir);
    vit::train::write_model_folder(vit::train::initial_model(s), vit::train::task_labels(s.task), dir.string());
    return vit::load_model(dir.string());
}

}  // namespace

TEST(LabSwap, SwappingExchangesTheTwoPatchesAndNothingElse) {
    std::mt19937_64 rng(1);
    const auto s = vit::train::draw_sample(vit::train::Task::LeftOf, rng, 64, 8);
    vit::Image img{64, 64, s.rgb};
    const auto sq = find_squares(img, 8, "left_of");
    ASSERT_EQ(sq.size(), 2u);
    const vit::Image out = swap_patches(img, 8, sq[0].patch, sq[1].patch);
    const auto after = find_squares(out, 8, "left_of");
    ASSERT_EQ(after.size(), 2u);
    EXPECT_EQ(after[0].patch, sq[1].patch) << "the red square now where the blue one was";
    EXPECT_EQ(after[1].patch, sq[0].patch);
    int changed = 0;
    for (int y = 0; y < 64; ++y)
        for (int x = 0; x < 64; ++x) {
            const int p = (y / 8) * 8 + x / 8;
            if (p != sq[0].patch && p != sq[1].patch) {
                EXPECT_EQ(out.at(x, y, 0), img.at(x, y, 0));
            }
            changed += out.at(x, y, 0) != img.at(x, y, 0);
        }
    EXPECT_GT(changed, 0);
}

TEST(LabSwap, WithoutPositionsTheClassTokenCannotTellTheSwapApart) {
    const fs::path dir = fs::temp_directory_path() / ("lab_swap_test_" + std::to_string(::getpid()));
    const vit::Model none = untrained(false, dir / "none"), with = untrained(true, dir / "with");
    std::mt19937_64 rng(9);
    double worst = 0, smallest_with = 1e9;
    for (int i = 0; i < 50; ++i) {
        const auto s = vit::train::draw_sample(vit::train::Task::LeftOf, rng, 64, 8);
        const vit::Image img{64, 64, s.rgb};
        const auto sq = find_squares(img, 8, "left_of");
        ASSERT_EQ(sq.size(), 2u);
        const LabSwap a = run_swap(none, img, sq[0].patch, sq[1].patch);
        worst = std::max(worst, a.cls_difference);
        EXPECT_EQ(a.answer, a.swapped_answer);
        smallest_with = std::min(smallest_with, run_swap(with, img, sq[0].patch, sq[1].patch).cls_difference);
    }
    EXPECT_LE(worst, kSwapTolerance);
    EXPECT_GT(smallest_with, 10 * kSwapTolerance) << "with positions the swap shows in the class token's output";
    const LabSwap equal{"a", "a", 0.6, 0.6, 1e-7};
    EXPECT_NE(swap_sentence(equal, false, true).find("permutation-equivariant"), std::string::npos);
    fs::remove_all(dir);
}
