"""The guided tour's claims from their definitions (docs in src/session/tour/tour_claims.h),
written again in NumPy for the tests that check vitscope's: the high-norm tokens,
selective reach beyond the query's neighbourhood, the unscaled top weight, the
regions, and the tour's choice of a relevant query."""
import numpy as np


def high_norm(states, prefix):
    """The patch tokens of one layer's states at least 10 x the median patch norm."""
    n = np.linalg.norm(states[prefix:], axis=1)
    return {prefix + int(j) for j in np.nonzero(n >= 10 * np.median(n))[0]}


def selective_reach(weights, grid, prefix, query, left_out):
    """weights: the row over all tokens; left_out: tokens not counted."""
    qr, qc = divmod(query - prefix, grid)
    w = np.asarray(weights, np.float64)[prefix:]
    far = [w[p] for p in range(grid * grid)
           if (abs(p // grid - qr) > 1 or abs(p % grid - qc) > 1) and prefix + p not in left_out]
    top = sorted(far, reverse=True)[:10]
    return sum(top) / w.sum(), len(top) / (grid * grid)


def top_softmax(scores):
    s = np.asarray(scores, np.float64)
    return float(1 / np.exp(s - s.max()).sum())


def claim(attn_row, grid, prefix, query, kind, region, extra=None):
    """extra: for selective_reach the high-norm tokens entering the layer, for
    unscaled_top_weight the raw scores q . k of the row."""
    if kind == "selective_reach":
        return selective_reach(attn_row, grid, prefix, query, extra)
    if kind == "unscaled_top_weight":
        return top_softmax(extra), float(attn_row.max())
    qr, qc = divmod(query - prefix, grid)
    w = attn_row[prefix:].astype(np.float64).reshape(grid, grid)
    rows, cols = np.indices((grid, grid))
    near = (np.abs(rows - qr) <= 1) & (np.abs(cols - qc) <= 1)
    if kind == "beyond_neighbourhood":
        return w[~near].sum() / w.sum(), (~near).sum() / near.size
    mask = np.zeros((grid, grid), bool)
    for r, c in region:
        if r < grid and c < grid:
            mask[r, c] = True
    mask &= ~near
    return w[mask].sum() / w.sum(), mask.sum() / (~near).sum()


def layer_norms(states, prefix):
    """Per layer: (largest, median) norm of the patch tokens leaving it."""
    norms = np.linalg.norm(states, axis=2)[:, prefix:]
    return [(float(n.max()), float(np.median(n))) for n in norms]


def holds(kind, value, baseline, ratio):
    if kind == "unscaled_top_weight":
        return value >= 0.9
    return value >= ratio * baseline and (kind != "beyond_neighbourhood" or value >= 0.5)


def choice_score(kind, value, baseline):
    if kind == "unscaled_top_weight" and value >= 0.9:
        return 1 + value - baseline
    return value


def relevant_patch(relevance, grid, prefix, left_out):
    """The tour's criterion for its query, patch by patch."""
    patches = grid * grid
    quarter = (patches + 3) // 4
    for border_allowed in (False, True):
        best = None
        for p in range(patches):
            r, c = divmod(p, grid)
            border = r in (0, grid - 1) or c in (0, grid - 1)
            if (relevance > relevance[p]).sum() >= quarter or prefix + p in left_out or (border and not border_allowed):
                continue
            if best is None or relevance[p] > relevance[best]:
                best = p
        if best is not None:
            return prefix + best
    return None
