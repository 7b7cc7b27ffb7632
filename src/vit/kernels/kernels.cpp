#include "vit/kernels/kernels.h"

#include <algorithm>
#include <string>

#include "vit/kernels/kernel_table.h"
#include "vit/base/worker_pool.h"

namespace vit {
namespace {

const isa::KernelTable& table() {
    static const isa::KernelTable& chosen = isa::pick_table();
    return chosen;
}

}  // namespace

const char* kernel_isa() { return table().name; }

namespace {

// Rows [begin, end) of blocks of at least 16 rows, one per core.
template <typename Each>
void over_row_blocks(int rows, Each&& each) {
    WorkerPool& pool = WorkerPool::shared();
    const int parts = std::max(1, std::min(pool.threads(), rows / 16));
    pool.run(parts, [&](int t) { each(rows * t / parts, rows * (t + 1) / parts); });
}

// Linear layers split their output columns (rows of W) into one block per
// core, each a whole number of the packed weights' panels (at least 16 wide):
// every thread reads only its share of the weights, and all of x.
// Block t of parts is [column_edge(t), column_edge(t + 1)).
int column_step() { return std::max(16, table().panel_width); }

int column_parts(int columns) {
    return std::max(1, std::min(WorkerPool::shared().threads(), columns / (2 * column_step())));
}

int column_edge(int columns, int t, int parts) {
    return t == parts ? columns : columns * t / parts / column_step() * column_step();
}

bool packed_for_this_table(const Linear& layer) {
    return layer.packed.width && layer.packed.width == table().panel_width && layer.packed.source == layer.w.data();
}

// y[:, begin:end] = x W[begin:end]^T + b[begin:end]; x_tiles: x packed by
// pack_tiles when every layer is packed, else null.
void gemm_columns(const Mat& x, const float* x_tiles, const Linear& layer, Mat& y, int begin, int end) {
    const int in = static_cast<int>(x.cols()), out = static_cast<int>(layer.w.rows());
    const float* bias = layer.b.size() ? layer.b.data() + begin : nullptr;
    if (x_tiles) {
        const float* panels = layer.packed.data.data() + static_cast<long>(begin) * in;  // begin: a panel edge
        table().gemm_packed(x_tiles, static_cast<int>(x.rows()), in, panels, bias, y.data() + begin, out, end - begin);
        return;
    }
    table().gemm_nt(x.data(), in, layer.w.data() + static_cast<long>(begin) * in, in, bias, 1.0f, y.data() + begin, out,
                    static_cast<int>(x.rows()), end - begin, in);
}

// The products of several layers on the same x (each y already sized), the
// output columns split over the cores; then `after` on each thread's columns.
// With weights packed, x is packed first, every thread a share of its tiles,
// rather than all of it by each.
template <typename After>
void run_linear(const Mat& x, std::initializer_list<LinearOut> outputs, After&& after) {
    WorkerPool& pool = WorkerPool::shared();
    int parts = pool.threads();
    bool packed = true;
    for (const LinearOut& o : outputs) {
        parts = std::min(parts, column_parts(static_cast<int>(o.y->cols())));
        packed = packed && packed_for_this_table(*o.layer);
    }
    const float* x_tiles = nullptr;
    if (packed) {
        thread_local Vec tiles;  // this thread's, kept between calls
        const int m = static_cast<int>(x.rows()), k = static_cast<int>(x.cols());
        if (tiles.size() < table().tiles_size(m, k)) tiles.resize(table().tiles_size(m, k));
        float* shared =
            tiles.data();  // the workers write their shares here: by pointer, not by the thread_local's name
        const int count = (m + table().tile_rows - 1) / table().tile_rows, shares = std::min(pool.threads(), count);
        pool.run(shares, [&](int t) {
            table().pack_tiles(x.data(), k, m, k, count * t / shares, count * (t + 1) / shares, shared);
        });
        x_tiles = shared;
    }
    pool.run(parts, [&](int t) {
        for (const LinearOut& o : outputs) {
            const int columns = static_cast<int>(o.y->cols());
            const int begin = column_edge(columns, t, parts), end = column_edge(columns, t + 1, parts);
            gemm_columns(x, x_tiles, *o.layer, *o.y, begin, end);
            after(*o.y, begin, end);
        }
    });
}

}  // namespace

void pack_weights(Linear& layer) {
    const int width = table().panel_width;
    layer.packed = PackedPanels{};
    if (!width || layer.w.size() == 0) return;
    const int n = static_cast<int>(layer.w.rows()), k = static_cast<int>(layer.w.cols());
    layer.packed.data.resize(table().panels_size(n, k));
    table().pack_nt(layer.w.data(), k, n, k, layer.packed.data.data());
    layer.packed.width = width;
    layer.packed.source = layer.w.data();
}

void pack_weights(Model& m) {
    pack_weights(m.patch_embed);
    for (Block& b : m.blocks)
        for (Linear* layer : {&b.q, &b.k, &b.v, &b.proj, &b.fc1, &b.fc2}) pack_weights(*layer);
}

void linear(const Mat& x, std::initializer_list<LinearOut> outputs) {
    for (const LinearOut& o : outputs) o.y->resize(x.rows(), o.layer->w.rows());
    run_linear(x, outputs, [](Mat&, int, int) {});
}

void linear(const Mat& x, const Linear& layer, Mat& y) { linear(x, {LinearOut{&layer, &y}}); }

void linear_gelu(const Mat& x, const Linear& layer, bool tanh_form, Mat& y) {
    y.resize(x.rows(), layer.w.rows());
    run_linear(x, {LinearOut{&layer, &y}}, [&](Mat& out, int begin, int end) {
        table().gelu(out.data() + begin, static_cast<int>(out.rows()), end - begin, static_cast<int>(out.cols()),
                     tanh_form);
    });
}

namespace {

// y = LayerNorm(x) on rows [begin, end); y already has x's shape.
void norm_rows(const Mat& x, const Vec& weight, const Vec& bias, float eps, Mat& y, int begin, int end) {
    table().layer_norm_rows(x.row(begin).data(), end - begin, static_cast<int>(x.cols()), weight.data(), bias.data(),
                            eps, y.row(begin).data());
}

}  // namespace

void layer_norm(const Mat& x, const Vec& weight, const Vec& bias, float eps, Mat& y) {
    y.resize(x.rows(), x.cols());
    over_row_blocks(static_cast<int>(x.rows()),
                    [&](int begin, int end) { norm_rows(x, weight, bias, eps, y, begin, end); });
}

void add_and_layer_norm(Mat& x, const Mat& branch, const Vec& layer_scale, const Vec& weight, const Vec& bias,
                        float eps, Mat& y) {
    y.resize(x.rows(), x.cols());
    over_row_blocks(static_cast<int>(x.rows()), [&](int begin, int end) {
        auto rows = x.middleRows(begin, end - begin);
        const auto add = branch.middleRows(begin, end - begin);
        if (layer_scale.size()) rows.array() += add.array().rowwise() * layer_scale.transpose().array();
        else rows += add;
        norm_rows(x, weight, bias, eps, y, begin, end);
    });
}

void head_attention(const Mat& q, const Mat& k, const Mat& v, int head, int head_dim, float scale, int begin, int end,
                    float* weights, Mat& context) {
    table().attention_rows(q.data(), k.data(), v.data(), static_cast<int>(q.cols()), static_cast<int>(k.rows()),
                           head * head_dim, head_dim, scale, begin, end, weights, context.data());
}

void copy_to_trace(const Mat& src, int col, int begin, int end, Mat& dst) {
    table().copy_rows(src.row(begin).data() + col, static_cast<int>(src.cols()), end - begin,
                      static_cast<int>(dst.cols()), dst.row(begin).data(), static_cast<int>(dst.cols()));
}

}  // namespace vit
