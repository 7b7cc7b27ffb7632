// A small hand-made Trace (seeded, test-only random Q, K, V; weights from a
// double-precision softmax written out here) for tests of the analyses that
// need no model: 2 layers of 2 heads, a 3 x 3 grid plus CLS, head_dim 4.
#pragma once
#include <cmath>
#include <random>

#include "vit/forward/forward.h"

namespace vit::testing {

constexpr int kGrid = 3, kTokens = 1 + kGrid * kGrid, kDim = 4, kLayers = 2, kHeads = 2;

// Softmax in double, so the tests do not lean on the library's.
inline vit::Vec reference_softmax(const Eigen::VectorXd& s) {
    const double m = s.maxCoeff();
    Eigen::VectorXd e = (s.array() - m).exp();
    return (e / e.sum()).cast<float>();
}

inline vit::Trace synthetic_trace() {
    std::mt19937 rng(1234);
    std::normal_distribution<float> normal(0.f, 2.f);
    vit::Trace t;
    t.grid = kGrid;
    t.prefix = 1;
    t.tokens = kTokens;
    t.head_dim = kDim;
    t.layers.resize(kLayers);
    for (auto& layer : t.layers) {
        layer.heads.resize(kHeads);
        for (auto& h : layer.heads) {
            for (vit::Mat* m : {&h.q, &h.k, &h.v}) {
                m->resize(kTokens, kDim);
                for (int i = 0; i < m->size(); ++i) m->data()[i] = normal(rng);
            }
            h.attn.resize(kTokens, kTokens);
            for (int i = 0; i < kTokens; ++i) {
                Eigen::VectorXd s = (h.k.cast<double>() * h.q.row(i).transpose().cast<double>()) / std::sqrt(kDim);
                h.attn.row(i) = reference_softmax(s).transpose();
            }
            h.out = h.attn * h.v;
        }
    }
    return t;
}

}  // namespace vit::testing
