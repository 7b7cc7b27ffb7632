"""The guided tour's claims from their definitions (docs in src/session/tour/tour_claims.h),
written again in NumPy for the tests that check vitscope's: the high-norm tokens,
selective reach beyond the query's neighbourhood, content reach against the
head's position-only kernel, the unscaled top weight, the
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


def position_kernel(attn_head, grid, prefix, left_out):
    """One head's mean renormalised weight at each offset (dr, dc), over the
    patch queries not left out, keys left out too: a (2 grid - 1)^2 array
    indexed [dr + grid - 1, dc + grid - 1]."""
    side = 2 * grid - 1
    total = np.zeros((side, side))
    count = np.zeros((side, side))
    kept = np.array([prefix + p not in left_out for p in range(grid * grid)])
    rows, cols = np.divmod(np.arange(grid * grid), grid)
    w = np.asarray(attn_head, np.float64)[prefix:, prefix:]
    for q in range(grid * grid):
        if not kept[q] or w[q, kept].sum() <= 0:
            continue
        row = w[q] / w[q, kept].sum()
        dr, dc = rows[kept] - rows[q] + grid - 1, cols[kept] - cols[q] + grid - 1
        np.add.at(total, (dr, dc), row[kept])
        np.add.at(count, (dr, dc), 1)
    return np.divide(total, count, out=np.zeros_like(total), where=count > 0)


def content_reach(attn_head, grid, prefix, query, left_out):
    """(value, kernel baseline, even share) of content_reach for one head's
    weights (tokens x tokens) and a patch query: the 10 heaviest patches at
    Chebyshev distance >= 3, high-norm keys left out and the row
    renormalised, against the head's own position-only kernel on the same
    keys."""
    kernel = position_kernel(attn_head, grid, prefix, left_out)
    qr, qc = divmod(query - prefix, grid)
    w = np.asarray(attn_head, np.float64)[query, prefix:]
    keys = [p for p in range(grid * grid) if prefix + p not in left_out]
    k = {p: kernel[p // grid - qr + grid - 1, p % grid - qc + grid - 1] for p in keys}
    far = [p for p in keys if max(abs(p // grid - qr), abs(p % grid - qc)) >= 3]
    top = sorted(far, key=lambda p: -w[p])[:10]
    return (w[top].sum() / w[keys].sum(), sum(k[p] for p in top) / sum(k.values()), len(top) / (grid * grid))


def content_reach_holds(value, baseline, even, ratio):
    return value >= ratio * baseline and value >= ratio * even


def top_softmax(scores):
    s = np.asarray(scores, np.float64)
    return float(1 / np.exp(s - s.max()).sum())


def claim(attn_row, grid, prefix, query, kind, region, extra=None):
    """extra: for selective_reach the high-norm tokens entering the layer, for
    unscaled_top_weight the raw scores q . k of the row, for content_reach
    (the head's whole weights, the high-norm tokens entering the layer): the
    row is then the head's tokens x tokens weights and the answer
    (value, baseline, even)."""
    if kind == "content_reach":
        return content_reach(attn_row, grid, prefix, query, extra)
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


def holds(kind, value, baseline, ratio, even=0.0):
    if kind == "content_reach":
        return content_reach_holds(value, baseline, even, ratio)
    if kind == "unscaled_top_weight":
        return value >= 0.9
    return value >= ratio * baseline and (kind != "beyond_neighbourhood" or value >= 0.5)


def choice_score(kind, value, baseline, even=0.0):
    if kind == "content_reach":
        return value / max(baseline, even) if max(baseline, even) > 0 else 0.0
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


def relevant_region(relevance, grid, prefix, query, left_out):
    """The automatic region: the patches of relevance's top quarter (fewer than a quarter of the patches
    more relevant), not left out, joined to the query edge to edge; (row, col) pairs, sorted."""
    patches = grid * grid
    quarter = (patches + 3) // 4
    top = {p for p in range(patches) if (relevance > relevance[p]).sum() < quarter and prefix + p not in left_out}
    q = query - prefix
    if q not in top:
        return []
    seen, todo = {q}, [q]
    while todo:
        p = todo.pop()
        r, c = divmod(p, grid)
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            n = nr * grid + nc
            if 0 <= nr < grid and 0 <= nc < grid and n in top and n not in seen:
                seen.add(n)
                todo.append(n)
    return sorted(divmod(p, grid) for p in seen)
