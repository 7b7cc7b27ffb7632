"""What the overlay shader (shaders/overlay.frag) must draw for given numbers,
written out here for the tests that sample drawn maps (page_maps_test.py,
window_cells_test.py), and the patchwork photo that makes it exact.

    colour = photo x (1 - alpha) + colormap(t) x alpha

t is the value on the map's scale, alpha its opacity (times t, or |2t - 1| on
the diverging map, when the map fades). The photo under a cell centre is
known exactly on a patchwork: one colour for all the photo's pixels that fall
in a patch of the model's crop (the default model resizes the short side to
248 and crops the central 224, crop_pct 0.9), so the photo under every cell
centre is that patch's colour whatever filtering the texture does: the
nearest other colour is half a patch (8 photo pixels) away. The photo is 264
pixels square, just over a texture size class (256), so its texture is padded
to 320: a drawing that forgets the photo's used extent of the texture
(u_photo_extent) puts cells over the wrong colours.
"""
import numpy as np
from PIL import Image

GRID, SIDE = 14, 264

# shaders/colormaps.glsl: 17 knots for viridis, 5 for the diverging map.
VIRIDIS = np.array([
    [0.267, 0.005, 0.329], [0.282, 0.095, 0.417], [0.279, 0.175, 0.483], [0.259, 0.252, 0.525],
    [0.230, 0.322, 0.546], [0.199, 0.388, 0.555], [0.173, 0.449, 0.558], [0.149, 0.508, 0.557],
    [0.128, 0.567, 0.551], [0.121, 0.626, 0.533], [0.158, 0.684, 0.502], [0.246, 0.739, 0.452],
    [0.369, 0.789, 0.383], [0.516, 0.831, 0.294], [0.678, 0.864, 0.190], [0.846, 0.887, 0.100],
    [0.993, 0.906, 0.144]])
DIVERGING = np.array([[0.150, 0.280, 0.620], [0.530, 0.680, 0.880], [0.965, 0.965, 0.965],
                      [0.930, 0.560, 0.460], [0.690, 0.090, 0.150]])


def colormap(knots, t):
    """Piecewise linear between the knots, t in [0, 1] (clamped); floats 0..1."""
    x = np.clip(np.asarray(t, dtype=np.float64), 0, 1) * (len(knots) - 1)
    i = np.minimum(x.astype(int), len(knots) - 2)
    a = (x - i)[..., None]
    return knots[i] + (knots[i + 1] - knots[i]) * a


def blend(photo, t, alpha, knots=VIRIDIS):
    """8-bit colours: the photo's (0..255) under colormap(t) at opacity alpha."""
    a = np.clip(np.asarray(alpha, dtype=np.float64), 0, 1)[..., None]
    return np.floor((photo / 255.0 * (1 - a) + colormap(knots, t) * a) * 255 + 0.5)


def patchwork(path, seed):
    """Writes a 264 x 264 patchwork PNG; returns its patches' colours (14, 14, 3), 0..255."""
    rng = np.random.default_rng(seed)
    colours = rng.integers(30, 226, size=(GRID, GRID, 3))
    # timm's centre crop in photo pixels: 224 of the 248 the short side is resized to.
    scale = SIDE / 248
    x0, side = 12 * scale, 224 * scale
    cell = np.floor((np.arange(SIDE) + 0.5 - x0) / (side / GRID)).astype(int)  # each pixel centre's patch
    inside = (cell >= 0) & (cell < GRID)
    img = np.full((SIDE, SIDE, 3), 128, np.uint8)
    rows, cols = np.nonzero(inside[:, None] & inside[None, :])
    img[rows, cols] = colours[cell[rows], cell[cols]]
    Image.fromarray(img).save(path)
    return colours.astype(np.float64)


def sample(pixels, x0, y0, cell_w, cell_h):
    """The pixels at the 14 x 14 cell centres of a grid whose top-left corner is (x0, y0); None when off the image."""
    rc = np.arange(GRID) + 0.5
    x = np.floor(x0 + rc * cell_w).astype(int)
    y = np.floor(y0 + rc * cell_h).astype(int)
    if x.min() < 0 or y.min() < 0 or x.max() >= pixels.shape[1] or y.max() >= pixels.shape[0]:
        return None
    return pixels[y[:, None], x[None, :], :3].astype(np.float64)


def worst(drawn, expected, skip=None):
    """(largest channel difference, the cell) over the cells; skip: a (row, col) whose 3 x 3 is left out
    (the query's outline)."""
    err = np.abs(drawn - expected).max(axis=2)
    if skip is not None:
        err[max(0, skip[0] - 1):skip[0] + 2, max(0, skip[1] - 1):skip[1] + 2] = 0
    at = np.unravel_index(np.argmax(err), err.shape)
    return float(err[at]), tuple(int(i) for i in at)
