// vitscope's own SIMD kernels (AVX2 and AVX-512, kernel_fast.inc) against
// the Eigen reference table, on every product shape the models use (ViT-Ti,
// -S and -B at 224 and 448 px), with random inputs; their exp against
// double precision; and the forward pass on 1 and 2 threads.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <ostream>
#include <random>
#include <thread>
#include <vector>

#include "support/real_model_fixture.h"
#include "support/same_trace.h"
#include "vit/base/worker_pool.h"
#include "vit/forward/forward.h"
#include "vit/kernels/kernel_table.h"
#include "vit/kernels/kernels.h"

namespace vit {
namespace {

struct Isa {
    const char* name;
    const isa::KernelTable& (*table)();
};

void PrintTo(const Isa& isa, std::ostream* os) { *os << isa.name; }

class FastKernels : public ::testing::TestWithParam<Isa> {
protected:
    void SetUp() override {
        if (!isa::runs_here(GetParam().table())) GTEST_SKIP() << "this CPU has no " << GetParam().name;
    }
    const isa::KernelTable& fast() const { return GetParam().table(); }
    const isa::KernelTable& eigen() const { return isa::table_eigen(); }
};

std::vector<float> random_values(size_t n, unsigned seed, float scale = 1.0f) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> d(0.0f, scale);
    std::vector<float> v(n);
    for (float& x : v) x = d(rng);
    return v;
}

// Both sums of a[i,:] b[:,j] run in float, in different orders: each is
// within k u sum|a b| of the exact value (u = 2^-24), so they differ by at
// most 2 k u sum|a b| (Higham, Accuracy and Stability, 3.1), times |alpha|.
// The bias is added once by both. Returns the largest |got - want| / bound.
using Doubles = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

double worst_over_bound(const std::vector<float>& got, const std::vector<float>& want, const Doubles& abs_a,
                        const Doubles& abs_b, int k, float alpha) {
    const Doubles bound = (2.0 * k * std::ldexp(1.0, -24) * std::abs(alpha)) * (abs_a * abs_b);
    double worst = 0;
    for (Eigen::Index i = 0; i < bound.size(); ++i)
        worst = std::max(worst, std::abs(static_cast<double>(got[i]) - want[i]) / (bound.data()[i] + 1e-30));
    return worst;
}

Doubles abs_of(const std::vector<float>& v, int rows, int cols, int ld) {
    const Eigen::Map<const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>, 0,
                     Eigen::OuterStride<>>
        m(v.data(), rows, cols, Eigen::OuterStride<>(ld));
    return m.cast<double>().cwiseAbs();
}

struct Product {
    int m, n, k;
};

// The linear layers (x W^T + b: tokens x out x in) and the attention scores
// (q k^T: rows x tokens x head dim) of ViT-Ti/S/B at 197 and 785 tokens, a
// single row, and widths that are no whole number of panels.
const std::vector<Product> kNtShapes = {{197, 192, 768},  {197, 576, 192},  {197, 192, 192},  {197, 768, 192},
                                        {197, 192, 768},  {785, 192, 192},  {785, 768, 192},  {785, 192, 768},
                                        {197, 384, 384},  {197, 1536, 384}, {197, 384, 1536}, {197, 768, 768},
                                        {197, 3072, 768}, {197, 768, 3072}, {98, 197, 64},    {99, 197, 64},
                                        {392, 785, 64},   {1, 1000, 192},   {5, 100, 70},     {13, 17, 3}};

TEST_P(FastKernels, GemmNtMatchesEigenOnTheModelsShapes) {
    for (const Product& s : kNtShapes) {
        const auto a = random_values(static_cast<size_t>(s.m) * s.k, 1),
                   b = random_values(static_cast<size_t>(s.n) * s.k, 2);
        const auto bias = random_values(s.n, 3);
        for (const float alpha : {1.0f, 0.125f}) {
            std::vector<float> got(static_cast<size_t>(s.m) * s.n), want(got.size());
            fast().gemm_nt(a.data(), s.k, b.data(), s.k, bias.data(), alpha, got.data(), s.n, s.m, s.n, s.k);
            eigen().gemm_nt(a.data(), s.k, b.data(), s.k, bias.data(), alpha, want.data(), s.n, s.m, s.n, s.k);
            const double worst =
                worst_over_bound(got, want, abs_of(a, s.m, s.k, s.k), abs_of(b, s.n, s.k, s.k).transpose(), s.k, alpha);
            EXPECT_LE(worst, 1.0) << s.m << "x" << s.n << "x" << s.k << " alpha " << alpha
                                  << ": worst difference over its bound";
        }
    }
}

// Weights packed once give the same floats as the same product packed on the fly.
TEST_P(FastKernels, PackedWeightsGiveTheSameFloatsAsPackingOnTheFly) {
    for (const Product& s : kNtShapes) {
        const auto a = random_values(static_cast<size_t>(s.m) * s.k, 4),
                   w = random_values(static_cast<size_t>(s.n) * s.k, 5);
        const auto bias = random_values(s.n, 6);
        std::vector<float> panels(fast().panels_size(s.n, s.k));
        fast().pack_nt(w.data(), s.k, s.n, s.k, panels.data());
        std::vector<float> packed(static_cast<size_t>(s.m) * s.n), on_the_fly(packed.size());
        std::vector<float> tiles(fast().tiles_size(s.m, s.k));
        const int count = (s.m + fast().tile_rows - 1) / fast().tile_rows;
        fast().pack_tiles(a.data(), s.k, s.m, s.k, 0, count / 2, tiles.data());  // in two shares, as two threads do
        fast().pack_tiles(a.data(), s.k, s.m, s.k, count / 2, count, tiles.data());
        fast().gemm_packed(tiles.data(), s.m, s.k, panels.data(), bias.data(), packed.data(), s.n, s.n);
        fast().gemm_nt(a.data(), s.k, w.data(), s.k, bias.data(), 1.0f, on_the_fly.data(), s.n, s.m, s.n, s.k);
        EXPECT_EQ(packed, on_the_fly) << s.m << "x" << s.n << "x" << s.k;
    }
}

// One head's attention (scores, softmax, weighted values; kernel_fast.inc
// fuses them per block of query rows) against Eigen's three steps: ViT-Ti's
// and ViT-B's head layout at 197 and 785 tokens, half the query rows as a
// forward's task takes them, weights kept or not, a head width that is no
// whole number of panels (v packed first), and fewer tokens than head dims.
TEST_P(FastKernels, AttentionRowsMatchEigen) {
    struct Case {
        int n, ld, head, head_dim, begin, end;
    };
    // Last: fewer tokens than the head has dimensions (a 32 px input).
    for (const Case c : {Case{197, 192, 2, 64, 0, 98}, Case{197, 768, 11, 64, 98, 197}, Case{785, 192, 1, 64, 392, 785},
                         Case{50, 96, 1, 48, 0, 50}, Case{5, 192, 1, 64, 0, 5}}) {
        const size_t size = static_cast<size_t>(c.n) * c.ld;
        const auto q = random_values(size, 11, 1.5f), k = random_values(size, 12, 1.5f), v = random_values(size, 13);
        const int rows = c.end - c.begin, col = c.head * c.head_dim;
        const float scale = 1.0f / std::sqrt(static_cast<float>(c.head_dim));
        std::vector<float> got_w(static_cast<size_t>(rows) * c.n), want_w(got_w.size()), got_c(size), want_c(size),
            plain_c(size);
        fast().attention_rows(q.data(), k.data(), v.data(), c.ld, c.n, col, c.head_dim, scale, c.begin, c.end,
                              got_w.data(), got_c.data());
        fast().attention_rows(q.data(), k.data(), v.data(), c.ld, c.n, col, c.head_dim, scale, c.begin, c.end, nullptr,
                              plain_c.data());
        eigen().attention_rows(q.data(), k.data(), v.data(), c.ld, c.n, col, c.head_dim, scale, c.begin, c.end,
                               want_w.data(), want_c.data());
        // Weights: the scores agree to the products' rounding (k = head dim),
        // which the exp turns into a relative difference; 4e-7 is the exp's own.
        double worst_w = 0;
        for (size_t i = 0; i < got_w.size(); ++i)
            worst_w = std::max(worst_w, std::abs(static_cast<double>(got_w[i]) - want_w[i]) / (want_w[i] + 1e-30));
        EXPECT_LT(worst_w, 2e-5) << c.n << " tokens: worst relative difference of a weight";
        // Outputs: what the weights' differences carry (sum |dw| |v|) plus both
        // sums' rounding over n terms (2 n u sum w |v|).
        double worst_c = 0;
        for (int r = 0; r < rows; ++r)
            for (int d = 0; d < c.head_dim; ++d) {
                double carried = 0, rounding = 0;
                for (int j = 0; j < c.n; ++j) {
                    const double w = want_w[static_cast<size_t>(r) * c.n + j],
                                 dw = got_w[static_cast<size_t>(r) * c.n + j] - w;
                    const double vj = std::abs(v[static_cast<size_t>(j) * c.ld + col + d]);
                    carried += std::abs(dw) * vj;
                    rounding += w * vj;
                }
                const size_t at = static_cast<size_t>(c.begin + r) * c.ld + col + d;
                const double bound = carried + 2.0 * c.n * std::ldexp(1.0, -24) * rounding + 1e-30;
                worst_c = std::max(worst_c, std::abs(static_cast<double>(got_c[at]) - want_c[at]) / bound);
                EXPECT_EQ(plain_c[at], got_c[at]) << "keeping the weights changed the output";
            }
        EXPECT_LE(worst_c, 1.0) << c.n << " tokens: worst output difference over its bound";
    }
}

// exp over the softmax's whole range (x - max <= 0) and the positive side up
// to 88.3 (above, 2^n overflows before exp(x) does: no softmax goes there),
// every 2^-12 and at random points, against double precision.
TEST_P(FastKernels, ExpIsWithinFourTenthsOfAMillionthOfDoublePrecision) {
    std::vector<float> x;
    for (double v = -87.3; v <= 88.3; v += 1.0 / 4096) x.push_back(static_cast<float>(v));
    const auto extra = random_values(100000, 9, 30.0f);
    for (float v : extra)
        if (v >= -87.3f && v <= 88.3f) x.push_back(v);
    std::vector<float> y(x.size());
    fast().exp(x.data(), y.data(), static_cast<int>(x.size()));
    double worst = 0;
    float worst_at = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        const double exact = std::exp(static_cast<double>(x[i]));
        const double err = std::abs(y[i] - exact) / exact;
        if (err > worst) worst = err, worst_at = x[i];
    }
    EXPECT_LT(worst, 4e-7) << "at x = " << worst_at;
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<float> edges = {-87.34f, -100.0f, -inf, std::numeric_limits<float>::quiet_NaN(), 0.0f};
    std::vector<float> out(edges.size());
    fast().exp(edges.data(), out.data(), static_cast<int>(edges.size()));
    EXPECT_EQ(out[0], 0.0f);
    EXPECT_EQ(out[1], 0.0f);
    EXPECT_EQ(out[2], 0.0f);
    EXPECT_TRUE(std::isnan(out[3]));
    EXPECT_EQ(out[4], 1.0f);
}

TEST_P(FastKernels, SoftmaxMatchesEigen) {
    for (const int cols : {197, 785, 1, 17}) {
        auto got = random_values(static_cast<size_t>(cols) * 5, 10, 6.0f);
        got[3 % cols] = 80.0f;  // one row with a dominant score: the rest underflow towards 0
        auto want = got;
        fast().softmax_rows(got.data(), 5, cols, cols);
        eigen().softmax_rows(want.data(), 5, cols, cols);
        for (size_t i = 0; i < got.size(); ++i)
            EXPECT_NEAR(got[i], want[i], 1e-6 * want[i] + 1e-30) << cols << " columns, element " << i;
    }
}

TEST_P(FastKernels, CopyRowsCopiesExactlyAndNothingElse) {
    // A head's columns out of q (the trace's copies), at every alignment of the destination.
    const int lds = 192, rows = 13;
    const auto src = random_values(static_cast<size_t>(lds) * rows, 11, 1.0f);
    for (const int cols : {64, 1, 17, 31})
        for (const int offset : {0, 1, 5, 15}) {
            const int ldd = cols + 3;
            std::vector<float> dst(static_cast<size_t>(ldd) * rows + offset + 8, -7.0f);
            fast().copy_rows(src.data() + 64, lds, rows, cols, dst.data() + offset, ldd);
            for (int r = 0; r < rows; ++r)
                for (int c = 0; c < ldd; ++c) {
                    const float got = dst[offset + static_cast<size_t>(r) * ldd + c];
                    EXPECT_EQ(got, c < cols ? src[static_cast<size_t>(r) * lds + 64 + c] : -7.0f)
                        << cols << " columns at offset " << offset << ", row " << r << " column " << c;
                }
            for (int i = 0; i < offset; ++i) EXPECT_EQ(dst[i], -7.0f) << "before the destination";
            EXPECT_EQ(dst.back(), -7.0f) << "after the destination";
        }
}

INSTANTIATE_TEST_SUITE_P(Isa, FastKernels,
                         ::testing::Values(Isa{"AVX2 + FMA", isa::table_v3}, Isa{"AVX-512", isa::table_v4}),
                         [](const auto& info) { return std::string(info.param.table == isa::table_v3 ? "v3" : "v4"); });

// The forward pass on one thread gives the same floats as on the shared pool:
// no sum's order depends on how the work is split.
struct FastForward : testing::RealModelFixture {};

TEST_F(FastForward, OneThreadGivesTheSameTraceAsTwo) {
    if (WorkerPool::shared().threads() < 2) GTEST_SKIP() << "one hardware thread";
    Trace alone;
    std::thread([&] {
        WorkerPool::keep_to_this_thread();
        alone = forward(*model, *input);
    }).join();
    testing::expect_same_trace(alone, *trace);
}

// A copy of the model (whose packed weights point at the original's) is
// packed on the fly, to the same floats.
TEST_F(FastForward, ACopiedModelGivesTheSameTrace) {
    const Model copy = *model;
    EXPECT_EQ(forward(copy, *input).logits, trace->logits);
}

}  // namespace
}  // namespace vit
