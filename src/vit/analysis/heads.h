// What several heads buy: how far each head looks (mean attention distance),
// how widely it spreads its weights, and how different the heads of a layer
// are from each other. Every number is averaged over the patch queries (CLS
// and register rows are left out: they do not sit on the grid).
#pragma once
#include "vit/forward/forward.h"

namespace vit {

// Mean attention distance (Dosovitskiy et al. 2021, Fig. 7 right), in pixels
// of the model input: for each patch query i, sum_j a_ij * dist(i, j) over the
// patch keys j, with the weights renormalised over the patch keys (CLS and
// register keys excluded: they have no position on the photo), dist the
// distance between the two patch centres (patch_px * sqrt(drow^2 + dcol^2));
// then the mean over the patch queries. A query row whose patch weights are
// all zero (every weight on the prefix tokens) has no distance and is left out.
double mean_attention_distance(const Trace& t, int layer, int head, int patch_px);
// The same for every layer (rows) and head (columns).
Eigen::MatrixXd mean_attention_distances(const Trace& t, int patch_px);

// Spread of a head: effective_keys (1 / sum a^2, attention_rows.h) of each
// patch query's whole row (every key, prefix tokens included), in keys
// (1 = one key, N = uniform), averaged over the patch queries. Layers x heads.
Eigen::MatrixXd mean_spreads(const Trace& t);

// How different two heads of one layer are: the Jensen-Shannon divergence
// between their rows for the same query (divergence.h: in bits, 0 = the same
// row, 1 for rows on disjoint keys), averaged over the patch queries.
// Heads x heads, symmetric, zero diagonal.
Eigen::MatrixXd head_divergences(const Trace& t, int layer);

}  // namespace vit
