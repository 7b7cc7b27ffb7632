// torch's two bicubic kernels (aten/src/ATen/native/cpu/UpSampleKernel.cpp),
// with align_corners=False and an output size (no scale factor), as timm's
// resample_abs_pos_embed and transformers' interpolate_pos_encoding call them.
// The weights are computed in float with torch's mix of float and double
// steps, so that they equal torch's to the last bit or two.
#include "vit/model/pos_embed.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "vit/base/error.h"

namespace vit {
namespace {

// Keys' cubic convolution for |x| <= 1 and 1 < |x| < 2 (torch's
// cubic_convolution1 and cubic_convolution2), in float.
float cubic_near(float x, float a) { return ((a + 2) * x - (a + 3)) * x * x + 1; }
float cubic_far(float x, float a) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; }

// antialias=False (upsample_bicubic2d): four taps around src = scale (o + 0.5) - 0.5
// with A = -0.75, indices clamped to the border (its values repeated).
ResizeTaps plain_taps(int in, int out) {
    const float a = -0.75f;
    const float scale = static_cast<float>(in) / static_cast<float>(out);
    ResizeTaps t;
    for (int o = 0; o < out; ++o) {
        const auto src = static_cast<float>(scale * (o + 0.5) - 0.5);
        const auto base = static_cast<int64_t>(std::floor(src));
        const float frac = src - static_cast<float>(base), rest = static_cast<float>(1.0 - frac);
        const float w[4] = {cubic_far(static_cast<float>(frac + 1.0), a), cubic_near(frac, a), cubic_near(rest, a),
                            cubic_far(static_cast<float>(rest + 1.0), a)};
        // Clamped indices make the taps a run over [lo, hi] with repeats summed.
        const int lo = static_cast<int>(std::clamp<int64_t>(base - 1, 0, in - 1));
        const int hi = static_cast<int>(std::clamp<int64_t>(base + 2, 0, in - 1));
        std::vector<float> taps(static_cast<size_t>(hi - lo + 1), 0.0f);
        for (int k = 0; k < 4; ++k)
            taps[static_cast<size_t>(std::clamp<int64_t>(base - 1 + k, 0, in - 1) - lo)] += w[k];
        t.first.push_back(lo);
        t.weights.push_back(std::move(taps));
    }
    return t;
}

// antialias=True (_upsample_bicubic2d_aa, PIL's resampling): Keys' kernel with
// a = -0.5 stretched by the scale when shrinking, centred on scale (o + 0.5),
// the taps cut at the borders and the weights divided by their sum.
ResizeTaps antialias_taps(int in, int out) {
    const float a = -0.5f;
    const float scale = static_cast<float>(in) / static_cast<float>(out);
    const float support = scale >= 1.0f ? 2.0f * scale : 2.0f;
    const float invscale = scale >= 1.0f ? 1.0f / scale : 1.0f;
    ResizeTaps t;
    for (int o = 0; o < out; ++o) {
        const float center = static_cast<float>(scale * (o + 0.5));
        const int64_t lo = std::max<int64_t>(static_cast<int64_t>(center - support + 0.5), 0);
        const int64_t hi = std::min<int64_t>(static_cast<int64_t>(center + support + 0.5), in);
        std::vector<float> taps;
        float total = 0.0f;
        for (int64_t j = lo; j < hi; ++j) {
            const auto x = std::abs(static_cast<float>((static_cast<float>(j) - center + 0.5) * invscale));
            const float w = x < 1.0f ? cubic_near(x, a) : x < 2.0f ? cubic_far(x, a) : 0.0f;
            taps.push_back(w);
            total += w;
        }
        if (total != 0.0f)
            for (float& w : taps) w /= total;
        t.first.push_back(static_cast<int>(lo));
        t.weights.push_back(std::move(taps));
    }
    return t;
}

// Resizes a rows x cols field (one matrix row per cell) along one axis,
// summing the taps in order in float, as torch does.
Mat resize_axis(const Mat& in, int rows, int cols, const ResizeTaps& taps, bool along_rows) {
    const int out_len = static_cast<int>(taps.first.size());
    const int out_rows = along_rows ? out_len : rows, out_cols = along_rows ? cols : out_len;
    Mat out(static_cast<Eigen::Index>(out_rows) * out_cols, in.cols());
    for (int r = 0; r < out_rows; ++r)
        for (int c = 0; c < out_cols; ++c) {
            const int o = along_rows ? r : c;
            const std::vector<float>& w = taps.weights[static_cast<size_t>(o)];
            auto source = [&](size_t k) {
                const int s = taps.first[static_cast<size_t>(o)] + static_cast<int>(k);
                return in.row(static_cast<Eigen::Index>(along_rows ? s : r) * cols + (along_rows ? c : s));
            };
            RowVec acc = source(0) * w[0];
            for (size_t k = 1; k < w.size(); ++k) acc += source(k) * w[k];
            out.row(static_cast<Eigen::Index>(r) * out_cols + c) = acc;
        }
    return out;
}

}  // namespace

ResizeTaps bicubic_taps(int in, int out, PosResize how) {
    if (in <= 0 || out <= 0) throw Error("a grid must have at least one cell to be resized");
    return how == PosResize::BicubicAntialias ? antialias_taps(in, out) : plain_taps(in, out);
}

Mat resize_grid(const Mat& field, int in_grid, int out_grid, PosResize how) {
    if (field.rows() != static_cast<Eigen::Index>(in_grid) * in_grid)
        throw Error("a " + std::to_string(in_grid) + " x " + std::to_string(in_grid) + " grid needs " +
                    std::to_string(in_grid * in_grid) + " rows, not " + std::to_string(field.rows()));
    if (in_grid == out_grid) return field;
    const ResizeTaps taps = bicubic_taps(in_grid, out_grid, how);
    const Mat wide = resize_axis(field, in_grid, in_grid, taps, false);
    return resize_axis(wide, in_grid, out_grid, taps, true);
}

Mat interpolate_pos_embed(const Model& m, int grid) {
    if (grid == m.pos_grid) return m.pos;
    const Eigen::Index cells = static_cast<Eigen::Index>(m.pos_grid) * m.pos_grid;
    const Eigen::Index lead = m.pos.rows() - cells;
    Mat out(lead + static_cast<Eigen::Index>(grid) * grid, m.pos.cols());
    out.topRows(lead) = m.pos.topRows(lead);
    out.bottomRows(out.rows() - lead) = resize_grid(m.pos.bottomRows(cells), m.pos_grid, grid, m.config.pos_resize);
    return out;
}

std::string describe_pos_resize(PosResize how) {
    return how == PosResize::BicubicAntialias
               ? "bicubic with antialiasing (torch interpolate, antialias=True), as timm and transformers' "
                 "Dinov2WithRegisters resize them"
               : "bicubic without antialiasing (torch interpolate, antialias=False), as transformers' ViT, DeiT and "
                 "Dinov2 resize them";
}

}  // namespace vit
